import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, postDeliberate, readSse, startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const ANSWERS: Record<string, string> = {
  call_grok: "Grok says Rust.",
  call_claude: "Claude says Go, for its simple concurrency.",
  call_gpt: "ChatGPT says TypeScript.",
};

describe.each(HISTORY_DATABASES)("a follow-up to one participant of a finished run, on $db", (database) => {
  const hooks = historyDatabaseHooks(database);

  it.skipIf(database.skip)("goes on with that participant's model, from its own words in the run, in the run's conversation", async () => {
    const db = await hooks.open();
    const script = withOverrides((req) =>
      req.phase === "answer" ? ANSWERS[req.participant!.key] : req.phase === "continue" ? "Go still, and here is why." : undefined,
    );
    const { deps, models } = testDeps({ script });
    const { url, close } = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
    hooks.later(close);
    const vote = (await readSse(await postDeliberate(url, { question: "Which language for a web API?", mode: "vote", modeConfig: { councilModels: THREE } })))
      .events;
    const runId = String(vote[0].data.run_id);
    const thread = String(vote[0].data.thread_id);

    const events = (
      await readSse(await postChat(url, { message: "Why not Rust?", conversationId: thread, continueWith: { runId, participant: "call_claude" } }))
    ).events;
    expect(events.slice(0, 2).map((e) => e.event)).toEqual(["metadata", "continue-start"]);
    expect(events.at(-1)!.event).toBe("done");
    expect(events[1].data).toMatchObject({ run_id: runId, participant: { key: "call_claude", display: "Claude" } });
    expect(
      events
        .filter((e) => e.event === "text-delta")
        .map((e) => e.data.delta)
        .join(""),
    ).toBe("Go still, and here is why.");

    // Claude's own model, which read the question and its own answer as its own message, then the follow-up.
    const [call] = models.callsOf("continue");
    expect(call.participant).toBe("call_claude");
    const roles = call.messages.map((m) => [m.getType(), String(m.content)]);
    expect(roles[0][0]).toBe("system");
    expect(roles[0][1]).toContain("You are Claude");
    expect(roles[1]).toEqual(["human", "Which language for a web API?"]);
    expect(roles[2]).toEqual(["ai", ANSWERS.call_claude]);
    expect(roles.at(-1)).toEqual(["human", "Why not Rust?"]);
    expect(roles.filter(([, text]) => text === ANSWERS.call_grok)).toHaveLength(0);

    // Kept in the run's conversation.
    const conversation = (await (await fetch(`${url}/api/v1/conversations/${thread}`)).json()) as {
      messages: { id: string; role: string; content: string; mode: string }[];
    };
    expect(conversation.messages.slice(-2).map((m) => [m.role, m.content])).toEqual([
      ["user", "Why not Rust?"],
      ["assistant", "Go still, and here is why."],
    ]);

    // A second follow-up reads the first, with Claude's answer to it, as the conversation with Claude.
    await readSse(await postChat(url, { message: "And for a CLI?", conversationId: thread, continueWith: { runId, participant: "call_claude" } }));
    const second = models.callsOf("continue")[1].messages.map((m) => [m.getType(), String(m.content)]);
    expect(second.slice(1)).toEqual([
      ["human", "Which language for a web API?"],
      ["ai", ANSWERS.call_claude],
      ["human", "Why not Rust?"],
      ["ai", "Go still, and here is why."],
      ["human", "And for a CLI?"],
    ]);
    // Each answer is filed under the participant it came from.
    const filed = await db.history.stagesOf(conversation.messages.at(-1)!.id);
    expect(filed.map((r) => [r.stageType, r.model, r.content, r.parsedData])).toEqual([
      [
        "continue_answer",
        "anthropic/claude-sonnet-4.5",
        "Go still, and here is why.",
        { run_id: runId, participant: { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5" } },
      ],
    ]);
    expect(conversation.messages.at(-1)!.mode).toBe("chat");

    const refusal = async (body: unknown) => {
      const res = await postChat(url, body);
      return [res.status, ((await res.json()) as { error: { code: string; message: string } }).error];
    };
    expect(await refusal({ message: "/vote again?", continueWith: { runId, participant: "call_claude" } })).toEqual([
      400,
      expect.objectContaining({ code: "invalid_body" }),
    ]);
    expect(await refusal({ message: "Hi", continueWith: { runId, participant: "call_qwen" } })).toEqual([
      400,
      { code: "invalid_participants", message: `run "${runId}" has no participant "call_qwen" (its participants: call_grok, call_claude, call_gpt)` },
    ]);
    expect(await refusal({ message: "Hi", continueWith: { runId: "no-such-run", participant: "call_claude" } })).toEqual([
      404,
      expect.objectContaining({ code: "debate_not_found" }),
    ]);
    expect(await refusal({ message: "Hi", continueWith: { runId } })).toEqual([400, expect.objectContaining({ code: "invalid_body" })]);
    expect(await refusal({ message: "Hi", participants: ["call_claude"], continueWith: { runId, participant: "call_claude" } })).toEqual([
      400,
      expect.objectContaining({ code: "invalid_body" }),
    ]);
    // It stays in the run's conversation, the default when none is named.
    const elsewhere = String((await readSse(await postChat(url, { message: "Hello" }))).events[0].data.thread_id);
    expect(await refusal({ message: "Hi", conversationId: elsewhere, continueWith: { runId, participant: "call_claude" } })).toEqual([
      400,
      expect.objectContaining({ code: "invalid_body" }),
    ]);
    const defaulted = (await readSse(await postChat(url, { message: "Once more?", continueWith: { runId, participant: "call_claude" } }))).events;
    expect(defaulted[0].data.thread_id).toBe(thread);
  });
});
