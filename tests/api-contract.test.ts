import { describe, expect, it } from "vitest";
import { LeaderboardReportSchema, ShareLinkSchema, ShareStatusSchema, StoredConversationSchema } from "../state/api.js";
import { withOverrides } from "./support/fake-model.js";
import { postChat, readSse } from "./support/http.js";
import { named } from "./support/harness.js";
import { servedWithHistory } from "./support/served.js";

/**
 * One contract for the page and the server: the REST answers the page reads are the zod schemas
 * of state/api.ts, checked here against what a real server answers (the cancel's in
 * cancel.test.ts). The types the page and the routes use are bound to those schemas at compile
 * time in api-contract.test-d.ts.
 */

describe("the REST contract the page reads", () => {
  it("answers a conversation, a share link and its status as the schemas declare them (strictly)", async () => {
    const { server } = await servedWithHistory();
    const { events } = await readSse(
      await postChat(server.url, { message: "/moa Which language suits web APIs best?", participants: ["call_grok", "call_claude"] }),
    );
    const id = String(named(events, "metadata")[0].thread_id);

    const conversation = await (await fetch(`${server.url}/api/v1/conversations/${id}`)).json();
    const parsed = StoredConversationSchema.safeParse(conversation);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toMatchObject({ format: "moa", mode: "moa", messages: [{ role: "user" }, { role: "assistant", format: "moa", status: "complete" }] });

    const link = await fetch(`${server.url}/api/v1/conversations/${id}/share`, { method: "POST" });
    expect(link.status).toBe(201);
    expect(ShareLinkSchema.safeParse(await link.json()).success).toBe(true);
    const status = await (await fetch(`${server.url}/api/v1/conversations/${id}/share`)).json();
    expect(ShareStatusSchema.parse(status)).toMatchObject({ shared: true });
  });

  it("keeps a /debatt ballot that named nobody in the stored result, as invalid (it is read back, not dropped)", async () => {
    const { server } = await servedWithHistory({
      script: withOverrides((req) => (req.phase === "vote" && req.participant?.key === "call_grok" ? "I cannot choose." : undefined)),
    });
    const { events } = await readSse(
      await postChat(server.url, { message: "/debatt Bör AI regleras?", participants: ["call_grok", "call_claude", "call_gpt"] }),
    );
    const id = String(named(events, "metadata")[0].thread_id);
    const conversation = StoredConversationSchema.parse(await (await fetch(`${server.url}/api/v1/conversations/${id}`)).json());
    const votes = (conversation.messages[1].result as { votes: { voter: string; votedFor: string | null; valid: boolean }[] }).votes;
    expect(votes).toHaveLength(3);
    expect(votes.find((v) => v.voter === "Grok")).toMatchObject({ valid: false, votedFor: null });
  });

  it("answers the leaderboard as its schema declares it (strictly), each model with the name its runs showed", async () => {
    const { server } = await servedWithHistory();
    const { events } = await readSse(
      await postChat(server.url, { message: "/vote Which language suits web APIs best?", participants: ["call_grok", "call_claude", "call_gpt"] }),
    );
    expect(events.at(-1)?.event).toBe("done");
    const board = await (await fetch(`${server.url}/api/v1/leaderboard`)).json();
    const parsed = LeaderboardReportSchema.safeParse(board);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data!.ballots).toBe(3);
    expect(Object.fromEntries(parsed.data!.models.map((m) => [m.model, m.display]))).toEqual({
      "x-ai/grok-4": "Grok",
      "anthropic/claude-sonnet-4.5": "Claude",
      "openai/gpt-5": "ChatGPT",
    });
  });
});
