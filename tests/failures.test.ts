import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { withOverrides } from "./support/fake-model.js";
import { named, runEvents, testDeps, graphOf } from "./support/harness.js";
import { outcomeReader } from "../service/outcome.js";
import { createNarrator } from "../service/narrator.js";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { translate } from "../state/messages/index.js";

const FOUR = ["call_grok", "call_claude", "call_gpt", "call_gemini"];

describe("faults during a debate", () => {
  it("marks a participant that throws as failed and goes on without it", async () => {
    const { deps, models, logs } = testDeps({
      script: withOverrides((req) =>
        req.phase === "turn" && req.participant!.key === "call_claude" && req.round === 2 ? { error: new Error("HTTP 502 from provider") } : undefined,
      ),
    });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR });
    const failed = named(events, "debate-participant-end").filter((e) => e.status === "error");
    expect(failed).toEqual([expect.objectContaining({ model: "Claude", round: 2, error: "HTTP 502 from provider", word_count: 0 })]);
    expect(named(events, "debate-round-end")[1]).toMatchObject({ round: 2, participant_count: 3 });
    // Claude still speaks in round 3 and the debate completes.
    expect(models.callsOf("turn", "call_claude")).toHaveLength(3);
    expect(named(events, "debate-results")).toHaveLength(1);
    expect(logs.some((l) => l.includes("Claude failed in round 2"))).toBe(true);
  });

  it("keeps what a failed turn streamed before it failed: its words in the end event", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) =>
        req.phase === "turn" && req.participant!.key === "call_gpt" && req.round === 1
          ? { text: "Half an answer about the topic", error: new Error("connection reset"), failAfterText: true }
          : undefined,
      ),
    });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR });
    const deltas = named(events, "debate-participant-delta")
      .filter((e) => e.model === "ChatGPT" && e.round === 1)
      .map((e) => e.delta)
      .join("");
    expect(deltas).toBe("Half an answer about the topic");
    const end = named(events, "debate-participant-end").find((e) => e.model === "ChatGPT" && e.round === 1)!;
    expect(end).toMatchObject({ status: "error", error: "connection reset", word_count: 6, response_preview: "Half an answer about the topic" });
    // Its words do not count towards the totals that break ties.
    const answered = named(events, "debate-participant-end").filter((e) => e.model === "ChatGPT" && e.status === "ok");
    expect(named(events, "debate-results")[0].word_counts.ChatGPT).toBe(answered.reduce((n, e) => n + e.word_count, 0));
  });

  it("times a slow participant out, aborting its call, and goes on", async () => {
    const { deps, models } = testDeps({
      script: withOverrides((req) =>
        req.phase === "turn" && req.participant!.key === "call_gpt" && req.round === 1 ? { text: "late", latencyMs: 5_000 } : undefined,
      ),
    });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR, configurable: { response_timeout_ms: 150 } });
    const end = named(events, "debate-participant-end").find((e) => e.model === "ChatGPT" && e.round === 1)!;
    expect(end).toMatchObject({ status: "error" });
    expect(end.error).toMatch(/timeout/);
    expect(models.callsOf("turn", "call_gpt")[0].aborted).toBe(true);
    expect(named(events, "debate-synthesis-complete")).toHaveLength(1);
  });

  it("does not wait for a provider that ignores the abort signal", async () => {
    const { deps, models } = testDeps({
      script: withOverrides((req) =>
        req.phase === "vote" && req.participant!.key === "call_grok" ? { text: "{}", latencyMs: 60_000, ignoreSignal: true } : undefined,
      ),
    });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR, configurable: { vote_timeout_ms: 200 } });
    // The run ended while Grok's vote still hung.
    expect(models.callsOf("vote", "call_grok")[0].finished).toBe(false);
    expect(named(events, "debate-results")[0]).toMatchObject({ invalid_votes: 1, total_votes: 3 });
  });

  it("guards the vote round with a whole-round timeout shorter than a vote's", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) => (req.phase === "vote" ? { text: "{}", latencyMs: 3_000 } : undefined)),
    });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR, configurable: { vote_timeout_ms: 10_000, vote_round_timeout_ms: 200 } });
    expect(named(events, "debate-results")[0]).toMatchObject({ invalid_votes: 4, total_votes: 0 });
  });

  it("drops garbage votes before they are emitted and names no winner when not one vote was valid", async () => {
    const garbage = ["", "I vote for Claude!", '{"voted_for": "Nobody", "short_motivation": "x", "three_bullets": ["a","b","c"]}', '{"voted_for": "Grok"}'];
    const { deps } = testDeps({
      script: withOverrides((req) =>
        req.phase === "vote" ? garbage[FOUR.indexOf(req.participant!.key)] : req.phase === "synthesis" ? { error: new Error("down") } : undefined,
      ),
    });
    const events = await runEvents(deps, "/debatt Is X good?", { participants: FOUR });
    expect(named(events, "debate-vote-result")).toHaveLength(0);
    const results = named(events, "debate-results")[0];
    // A tie of everyone at zero decided by word count or name would be a verdict nobody gave.
    expect(results).toMatchObject({ winner: null, total_votes: 0, invalid_votes: 4, tiebreaker_used: false, tiebreaker: "none" });
    expect(named(events, "debate-synthesis-complete")).toEqual([expect.objectContaining({ winner: null })]);
    // The fallback synthesis says so, and so do the outcome (MCP) and the terminal.
    const synthesis = named(events, "text-delta")
      .map((d) => d.delta)
      .join("");
    expect(synthesis).toContain("Winner: **none (not one valid vote was cast)**");
    const reader = outcomeReader();
    for (const e of events) reader.read(e);
    expect(reader.outcome().winner).toBeUndefined();
    let printed = "";
    const narrate = createNarrator(
      (text) => (printed += text),
      MARKDOWN_STYLES,
      (key, values) => translate("en", key, values),
    );
    for (const e of events) narrate(e);
    expect(printed).toContain("No winner: not one valid vote was cast.");
    expect(printed).not.toContain("👑");
  });

  it("finishes with the computed results when the convergence analysis fails", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "convergence" ? { error: new Error("boom") } : undefined)) });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR });
    expect(named(events, "debate-results")[0].winner).toBe("Grok");
    const synthesis = named(events, "text-delta")
      .map((d) => d.delta)
      .join("");
    expect(synthesis).toContain('"consensus":[]');
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "error")).toHaveLength(0);
  });

  it("falls back to a deterministic synthesis when the synthesizer fails", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "synthesis" ? { error: new Error("down") } : undefined)) });
    const events = await runEvents(deps, "/debatt Bör AI regleras?", { participants: FOUR });
    const synthesis = named(events, "text-delta")
      .map((d) => d.delta)
      .join("");
    expect(synthesis).toContain("## Debattens resultat: Bör AI regleras?");
    expect(synthesis).toContain("Vinnare: **Grok**");
    expect(synthesis).toContain("- Grok: 3");
    expect(synthesis).toContain("Sammanfattning: They mostly agreed.");
    expect(named(events, "debate-synthesis-complete")[0].synthesis_length).toBe(synthesis.length);
  });

  it("ends with an error when fewer than two participants answer a round", async () => {
    const { deps, models } = testDeps({
      script: withOverrides((req) => (req.phase === "turn" && req.participant!.key !== "call_grok" ? { error: new Error("no credit") } : undefined)),
    });
    const events = await runEvents(deps, "/debatt X", { participants: FOUR });
    expect(named(events, "error")[0]).toMatchObject({ code: "too_few_answers" });
    expect(named(events, "error")[0].message).toContain("only 1 of 4 participants answered round 1");
    expect(named(events, "debate-results")).toHaveLength(0);
    expect(models.callsOf("turn")).toHaveLength(4);
    expect(events.at(-1)!.event).toBe("done");
  });

  it("stops every model call when the run is cancelled, and starts no more", async () => {
    const { deps, models } = testDeps({ script: withOverrides((req) => (req.phase === "turn" ? { text: "slow answer", latencyMs: 400 } : undefined)) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 600);
    const events = await runEvents(deps, "/debatt X", { participants: FOUR, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 600));
    expect(models.calls).toHaveLength(2);
    expect(models.calls[1].aborted).toBe(true);
    expect(events.at(-1)!.event).toBe("done");
    expect(named(events, "debate-results")).toHaveLength(0);
  });

  it("resumes a checkpointed thread after the last completed turn", async () => {
    const checkpointer = new MemorySaver();
    const threadId = "resume-1";
    const first = testDeps({
      script: withOverrides((req) => (req.phase === "turn" ? { text: `answer of ${req.participant!.key} r${req.round}`, latencyMs: 60 } : undefined)),
    });
    const controller = new AbortController();
    const partial: string[] = [];
    const graph = graphOf(first.deps, { checkpointer });
    // Stop in round 2 when its third turn starts: the two before it are checkpointed.
    const stream = await graph.stream(
      { message: "/debatt X", participants: FOUR },
      { streamMode: "custom", signal: controller.signal, configurable: { thread_id: threadId } },
    );
    try {
      for await (const chunk of stream) {
        const c = chunk as { event: string; data: any };
        if (c.event === "debate_participant_end") partial.push(`${c.data.model_key}:${c.data.round}`);
        if (c.event === "debate_participant_start" && c.data.round === 2 && c.data.position === 3) controller.abort();
      }
    } catch {
      /* aborted */
    }
    expect(partial).toHaveLength(6);
    const second = testDeps();
    const resumed = graphOf(second.deps, { checkpointer });
    const events: { event: string; data: any }[] = [];
    for await (const chunk of await resumed.stream(null, { streamMode: "custom", configurable: { thread_id: threadId } })) events.push(chunk);
    const turns = second.models.callsOf("turn").map((c) => `${c.participant}:${c.round}`);
    // 12 turns in all: the 6 completed ones are not asked again.
    expect(turns).toHaveLength(6);
    for (const done of partial) expect(turns).not.toContain(done);
    expect(events.filter((e) => e.event === "debate_results")).toHaveLength(1);
  });
});
