import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "../graph/models.js";
import { loadDebateResult, loadVoteResult } from "../history/load.js";
import type { StageRow } from "../history/store.js";
import type { Participant } from "../state/participants.js";
import { withOverrides, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, postgresHistory, sqliteHistory, TABLES, type TestHistory } from "./support/history-db.js";
import { postChat, postDeliberate, readSse, startApp, type SseEvent } from "./support/http.js";
import type { PostgresServer } from "./support/postgres.js";

/** The four models of seed 000's and 001's §G examples. */
const SEED_ROSTER: Participant[] = [
  { key: "claude", display: "Claude", model: "anthropic/claude-opus-4-6" },
  { key: "o3", display: "o3", model: "openai/o3" },
  { key: "gemini", display: "Gemini", model: "google/gemini-2.5-pro" },
  { key: "sonar", display: "Sonar", model: "perplexity/sonar-pro" },
];
const MODEL = Object.fromEntries(SEED_ROSTER.map((p) => [p.key, p.model]));

const promptOf = (messages: BaseMessage[]) => messages.map((m) => String(m.content)).join("\n");
/** The label under which the answer starting with `start` appears in a vote prompt. */
function labelOf(messages: BaseMessage[], start: string): string {
  const hit = [...promptOf(messages).matchAll(/--- (Response [A-Z])(?: \(\d+ votes\))? ---\n([^\n]*)/g)].find((b) => b[2].startsWith(start));
  if (!hit) throw new Error(`no answer starting "${start}" in the prompt`);
  return hit[1];
}
/** `lead` followed by filler up to exactly `words` words. */
const text = (lead: string, words: number) => `${lead} ${"detail ".repeat(words - lead.split(" ").length).trim()}`;

/** The stored rows without what differs from run to run (ids, times). */
const shape = (rows: StageRow[]) => rows.map(({ id, createdAt, messageId, ...rest }) => rest);

async function runSse(res: Response): Promise<SseEvent[]> {
  expect(res.status).toBe(200);
  return (await readSse(res)).events;
}
const runIdOf = (events: SseEvent[]) => String(events[0].data.run_id);

describe.each(HISTORY_DATABASES)("the history on $db", ({ skip, server }) => {
  let pgServer: PostgresServer | undefined;
  let db: TestHistory;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    if (!skip) pgServer = await server();
  }, 60_000);
  afterAll(async () => pgServer?.stop());
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** The app on a fresh history database of this describe's kind. */
  async function app(script?: Script, roster: Participant[] = SEED_ROSTER) {
    db = pgServer ? await postgresHistory(pgServer) : await sqliteHistory();
    cleanups.push(() => db.close());
    const { deps, models } = testDeps({ script, settings: { roster } });
    const checkpointer = new MemorySaver();
    const started = await startApp(deps, { checkpointer, history: db.history });
    cleanups.push(started.close);
    return { ...started, models, checkpointer, history: db.history };
  }

  it.skipIf(skip)("reproduces seed 001 §G: the /vote rows, the conversation and loadVoteResult", async () => {
    const answers: Record<string, string> = {
      claude: "The best programming language for web APIs is TypeScript.",
      o3: "For web APIs, Go is hard to beat.",
      gemini: "Python with FastAPI is the pragmatic choice.",
    };
    const choice: Record<string, string> = { claude: "claude", o3: "claude", gemini: "gemini" };
    const { url, history } = await app(
      withOverrides((req, _i, messages) => {
        const key = req.participant?.key ?? "";
        if (req.phase === "answer") return answers[key];
        if (req.phase === "ballot") return `Reasoning first.\nVOTE: ${labelOf(messages, answers[choice[key]])}`;
        return undefined;
      }),
    );
    const events = await runSse(await postDeliberate(url, { question: "Best language for web APIs?", mode: "vote", modeConfig: { councilModels: ["claude", "o3", "gemini"] } }));
    const id = runIdOf(events);
    const rows = await history.stagesOf(id);

    const labels = rows[0].parsedData as Record<string, string>;
    const labelFor = (key: string) => Object.keys(labels).find((l) => labels[l] === MODEL[key])!;
    const [a, c] = [labelFor("claude"), labelFor("gemini")];
    const tallies = { [a]: 2, [c]: 1 };
    const times = rows.filter((r) => r.stageType === "collect" || r.stageType === "vote").map((r) => r.responseTimeMs);
    expect(times.every((t) => typeof t === "number" && t >= 0)).toBe(true);
    const t = (i: number) => times[i];
    expect(shape(rows)).toEqual([
      { stageType: "label_map", stageOrder: 0, seq: 0, model: null, role: null, content: JSON.stringify(labels), parsedData: labels, responseTimeMs: null },
      ...["claude", "o3", "gemini"].map((k, i) => ({ stageType: "collect", stageOrder: 1, seq: i, model: MODEL[k], role: "respondent", content: answers[k], parsedData: { responseTimeMs: t(i) }, responseTimeMs: t(i) })),
      ...["claude", "o3", "gemini"].map((k, i) => ({
        stageType: "vote",
        stageOrder: 2,
        seq: i,
        model: MODEL[k],
        role: "voter",
        content: `Reasoning first.\nVOTE: ${labelFor(choice[k])}`,
        parsedData: { votedFor: labelFor(choice[k]) },
        responseTimeMs: t(3 + i),
      })),
      {
        stageType: "vote_tally",
        stageOrder: 3,
        seq: 0,
        model: null,
        role: null,
        content: expect.any(String),
        parsedData: { tallies, validVoteCount: 3, invalidVoteCount: 0, isTie: false, winners: [a], tiedLabels: [] },
        responseTimeMs: null,
      },
      {
        stageType: "winner",
        stageOrder: 5,
        seq: 0,
        model: MODEL.claude,
        role: "winner",
        content: answers.claude,
        parsedData: { winnerLabel: a, winnerModel: MODEL.claude, voteCount: 2, totalVotes: 3, tiebroken: false },
        responseTimeMs: null,
      },
    ]);
    expect(JSON.parse(rows.find((r) => r.stageType === "vote_tally")!.content)).toEqual({ tallies, isTie: false, winners: [a] });

    // Conversation-level storage: mode "vote", the question and the UNMODIFIED winner.
    const [conversation] = await db.rows("conversations");
    expect(conversation).toMatchObject({ id, mode: "vote", title: "A Scripted Title" });
    expect((await history.messagesOf(id)).map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "Best language for web APIs?", "complete"],
      ["assistant", answers.claude, "complete"],
    ]);

    // The seed's query pattern.
    const result = await loadVoteResult(history, id);
    expect(result.stage1.map((s) => [s.model, s.response])).toEqual(["claude", "o3", "gemini"].map((k) => [MODEL[k], answers[k]]));
    expect(result.voteRound).toMatchObject({ tallies, labelToModel: labels, validVoteCount: 3, invalidVoteCount: 0, isTie: false, tiedLabels: [] });
    expect(result.voteRound!.votes.map((v) => v.votedFor)).toEqual([a, a, c]);
    expect(result.tiebreaker).toBeUndefined();
    expect(result.winner).toEqual({ winnerLabel: a, winnerModel: MODEL.claude, winnerResponse: answers.claude, voteCount: 2, totalVotes: 3, tiebroken: false, tiebreakerModel: undefined });
  });

  it.skipIf(skip)("writes seed 001's tiebreaker row on a tie (stage 4), and the chairman in the winner", async () => {
    const { url, history } = await app(
      withOverrides((req, _i, messages) => {
        if (req.phase === "answer") return `${req.participant!.display} answers.`;
        // Every voter picks its own answer: a three-way tie.
        if (req.phase === "ballot") return `Mine.\nVOTE: ${labelOf(messages, `${req.participant!.display} answers.`)}`;
        return undefined;
      }),
    );
    const events = await runSse(await postDeliberate(url, { question: "Tabs or spaces?", mode: "vote", modeConfig: { councilModels: ["claude", "o3", "gemini"], chairmanModel: "sonar" } }));
    const rows = await history.stagesOf(runIdOf(events));
    expect(rows.map((r) => [r.stageType, r.stageOrder])).toEqual([
      ["label_map", 0],
      ["collect", 1], ["collect", 1], ["collect", 1],
      ["vote", 2], ["vote", 2], ["vote", 2],
      ["vote_tally", 3],
      ["tiebreaker", 4],
      ["winner", 5],
    ]);
    const tiebreaker = rows.find((r) => r.stageType === "tiebreaker")!;
    const tied = ["Response A", "Response B", "Response C"];
    expect(tiebreaker).toMatchObject({ model: MODEL.sonar, role: "chairman", parsedData: { votedFor: "Response A", tiedLabels: tied, tiedVoteCount: 1 } });
    expect(rows.find((r) => r.stageType === "vote_tally")!.parsedData).toMatchObject({ isTie: true, winners: tied, tiedLabels: tied });
    expect((await loadVoteResult(history, runIdOf(events))).winner).toMatchObject({ winnerLabel: "Response A", tiebroken: true, tiebreakerModel: MODEL.sonar });
  });

  it.skipIf(skip)("reproduces seed 000 §G: the /revise rows (stored as mode \"debate\") and loadDebateResult", async () => {
    // The seed's example: word counts 420→510 REVISE, 380→380 STAND, 350→580 MERGE, 400→470 REVISE.
    const original: Record<string, string> = {
      claude: text("Yes, companies should seriously consider a 4-day work week.", 420),
      o3: text("The 4-day work week has pros and cons.", 380),
      gemini: text("Research shows mixed results for 4-day work weeks.", 350),
      sonar: text("Several major trials of the 4-day work week have shown gains.", 400),
    };
    const revision: Record<string, { decision: string; reasoning: string; revised: string }> = {
      claude: { decision: "REVISE", reasoning: "Response B raised important industry-specific concerns that my original response glossed over", revised: text("Yes, but with caveats for each industry.", 510) },
      o3: { decision: "STAND", reasoning: "My balanced analysis already covered the key points raised by other responses", revised: original.o3 },
      gemini: { decision: "MERGE", reasoning: "Combining the empirical data from Response D with practical guidance from Response A creates a stronger answer", revised: text("A comprehensive look at the 4-day work week.", 580) },
      sonar: { decision: "REVISE", reasoning: "Other responses prompted me to add implementation guidance alongside the research data", revised: text("Several major trials have shown promising results.", 470) },
    };
    const revisionText = (k: string) => `DECISION: ${revision[k].decision}\nREASONING: ${revision[k].reasoning}\n\nREVISED RESPONSE:\n${revision[k].revised}`;
    const choice: Record<string, string> = { claude: "gemini", o3: "gemini", gemini: "claude", sonar: "gemini" };
    const { url, history } = await app(
      withOverrides((req: ModelRequest, _i, messages) => {
        const key = req.participant?.key ?? "";
        if (req.phase === "answer") return original[key];
        if (req.phase === "revision") return revisionText(key);
        if (req.phase === "ballot") return `The merged response is strongest.\nVOTE: ${labelOf(messages, revision[choice[key]].revised.slice(0, 30))}`;
        return undefined;
      }),
    );
    const keys = ["claude", "o3", "gemini", "sonar"];
    const events = await runSse(await postDeliberate(url, { question: "Should companies adopt a 4-day work week?", mode: "debate", modeConfig: { models: keys } }));
    const id = runIdOf(events);
    const rows = await history.stagesOf(id);

    const round1 = rows[0].parsedData as Record<string, string>;
    const revised = rows.find((r) => r.stageType === "revised_label_map")!.parsedData as Record<string, string>;
    expect(Object.values(round1).sort()).toEqual(Object.values(MODEL).sort());
    expect(Object.values(revised).sort()).toEqual(Object.values(MODEL).sort());
    const revisedLabel = (k: string) => Object.keys(revised).find((l) => revised[l] === MODEL[k])!;
    const tallies = { [revisedLabel("gemini")]: 3, [revisedLabel("claude")]: 1 };
    const time = (type: string, i: number) => rows.filter((r) => r.stageType === type)[i].responseTimeMs;
    expect(shape(rows)).toEqual([
      { stageType: "round1_label_map", stageOrder: 0, seq: 0, model: null, role: null, content: JSON.stringify(round1), parsedData: round1, responseTimeMs: null },
      ...keys.map((k, i) => ({ stageType: "initial_answer", stageOrder: 1, seq: i, model: MODEL[k], role: "respondent", content: original[k], parsedData: { responseTimeMs: time("initial_answer", i) }, responseTimeMs: time("initial_answer", i) })),
      ...keys.map((k, i) => ({
        stageType: "revision",
        stageOrder: 2,
        seq: i,
        model: MODEL[k],
        role: "debater",
        content: revisionText(k),
        parsedData: {
          decision: revision[k].decision,
          reasoning: revision[k].reasoning,
          originalWordCount: [420, 380, 350, 400][i],
          revisedWordCount: [510, 380, 580, 470][i],
          parseSuccess: true,
        },
        responseTimeMs: time("revision", i),
      })),
      {
        stageType: "revision_summary",
        stageOrder: 3,
        seq: 0,
        model: null,
        role: null,
        content: '{"totalModels":4,"revised":2,"stood":1,"merged":1,"parseFailed":0}',
        parsedData: { totalModels: 4, revised: 2, stood: 1, merged: 1, parseFailed: 0 },
        responseTimeMs: null,
      },
      { stageType: "revised_label_map", stageOrder: 4, seq: 0, model: null, role: null, content: JSON.stringify(revised), parsedData: revised, responseTimeMs: null },
      ...keys.map((k, i) => ({
        stageType: "debate_vote",
        stageOrder: 5,
        seq: i,
        model: MODEL[k],
        role: "voter",
        content: `The merged response is strongest.\nVOTE: ${revisedLabel(choice[k])}`,
        parsedData: { votedFor: revisedLabel(choice[k]) },
        responseTimeMs: time("debate_vote", i),
      })),
      {
        stageType: "debate_vote_tally",
        stageOrder: 6,
        seq: 0,
        model: null,
        role: null,
        content: expect.any(String),
        parsedData: { tallies, validVoteCount: 4, invalidVoteCount: 0, isTie: false, winners: [revisedLabel("gemini")], tiedLabels: [] },
        responseTimeMs: null,
      },
      {
        stageType: "debate_winner",
        stageOrder: 7,
        seq: 0,
        model: MODEL.gemini,
        role: "winner",
        content: revision.gemini.revised,
        parsedData: { winnerLabel: revisedLabel("gemini"), winnerModel: MODEL.gemini, winnerDecision: "MERGE", voteCount: 3, totalVotes: 4, tiebroken: false },
        responseTimeMs: null,
      },
    ]);

    const [conversation] = await db.rows("conversations");
    expect(conversation).toMatchObject({ id, mode: "debate" });
    expect((await history.messagesOf(id)).map((m) => [m.role, m.content])).toEqual([
      ["user", "Should companies adopt a 4-day work week?"],
      ["assistant", revision.gemini.revised],
    ]);

    const result = await loadDebateResult(history, id);
    expect(result.revisions.map((r) => [r.decision, r.originalResponse, r.revisedResponse, r.parseSuccess])).toEqual(keys.map((k) => [revision[k].decision, original[k], revision[k].revised, true]));
    expect(result.revisionSummary).toEqual({ totalModels: 4, revised: 2, stood: 1, merged: 1, parseFailed: 0 });
    expect(result.votes).toMatchObject({ tallies, revisedLabelToModel: revised, validVoteCount: 4, isTie: false });
    expect(result.winner).toEqual({
      winnerLabel: revisedLabel("gemini"),
      winnerModel: MODEL.gemini,
      winnerResponse: revision.gemini.revised,
      winnerDecision: "MERGE",
      voteCount: 3,
      totalVotes: 4,
      tiebroken: false,
      tiebreakerMethod: undefined,
    });
  });

  it.skipIf(skip)("keeps the question and the stage-1 rows when every vote fails to parse (seed 000/001 §F), with the error on the answer", async () => {
    const { url, history } = await app(withOverrides((req) => (req.phase === "ballot" ? "I cannot decide." : undefined)));
    const events = await runSse(await postDeliberate(url, { question: "Undecidable?", mode: "vote", modeConfig: { councilModels: ["claude", "o3", "gemini"] } }));
    const id = runIdOf(events);
    expect((await history.stagesOf(id)).map((r) => r.stageType)).toEqual(["label_map", "collect", "collect", "collect", "vote", "vote", "vote", "vote_tally"]);
    const [question, answer] = await history.messagesOf(id);
    expect(question.content).toBe("Undecidable?");
    expect(answer).toMatchObject({ status: "error", error: "All votes failed to parse.", content: "" });
  });
});
