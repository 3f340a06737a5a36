import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it, vi } from "vitest";
import type { AppDeps } from "../service/app-deps.js";
import type { ModelRequest } from "../ports/models.js";
import { loadVoteResult } from "../history/formats/vote.js";
import { loadDebateResult } from "../history/formats/revise.js";
import { titleOf } from "../history/rows.js";
import type { StageRow } from "../history/store.js";
import type { Participant } from "../state/participants.js";
import { AudioArchive } from "../providers/audio-archive.js";
import { MemoryValueStore, VoiceSettingsStore } from "../providers/voice-settings-store.js";
import { defaultRoster } from "../state/participants.js";
import { answerOf, withOverrides, type Script } from "./support/fake-model.js";
import { FakeSpeech } from "./support/fake-speech.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks, TABLES, type TestHistory } from "./support/history-db.js";
import { postChat, postDeliberate, readSse, startApp, type SseEvent } from "./support/http.js";

/** The four models of seed 000's and 001's §G examples. */
const SEED_ROSTER: Participant[] = [
  { key: "claude", display: "Claude", model: "anthropic/claude-opus-4-6" },
  { key: "o3", display: "o3", model: "openai/o3" },
  { key: "gemini", display: "Gemini", model: "google/gemini-2.5-pro" },
  { key: "sonar", display: "Sonar", model: "perplexity/sonar-pro" },
];
const THREE = ["call_grok", "call_claude", "call_gpt"];
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

describe.each(HISTORY_DATABASES)("the history on $db", (database) => {
  const { skip } = database;
  const hooks = historyDatabaseHooks(database);
  let db: TestHistory;

  /** The app on a fresh history database of this describe's kind. */
  async function app(script?: Script, roster: Participant[] = SEED_ROSTER, tweak: (deps: AppDeps) => void = () => {}) {
    db = await hooks.open();
    const { deps, models } = testDeps({ script, settings: { roster } });
    tweak(deps);
    const checkpointer = new MemorySaver();
    const started = await startApp(deps, { checkpointer, history: db.history });
    hooks.later(started.close);
    return { ...started, models, checkpointer, history: db.history };
  }

  it.skipIf(skip)("lists a user's conversations through an index of their owner, not by reading every user's", async () => {
    db = await hooks.open();
    // The listing's query: a page of one owner's conversations, newest first.
    const plan = await db.plan('SELECT * FROM "conversations" WHERE "user_id" IN (?) ORDER BY "created_at" DESC, "id" DESC LIMIT 21', ["ada"]);
    expect(plan).toContain("conversations_user_created_idx");
  });

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
    const events = await runSse(
      await postDeliberate(url, { question: "Best language for web APIs?", mode: "vote", modeConfig: { councilModels: ["claude", "o3", "gemini"] } }),
    );
    const id = runIdOf(events);
    // Our panel row comes first (who took part, for a reopened run's view); then the seed's rows.
    const [panel, ...rows] = await history.stagesOf(id);
    const who = (k: string) => ({ model: MODEL[k], display: SEED_ROSTER.find((p) => p.key === k)!.display, modelKey: k });
    expect(panel).toMatchObject({
      stageType: "vote_panel",
      stageOrder: -1,
      parsedData: {
        question: "Best language for web APIs?",
        participants: ["claude", "o3", "gemini"].map(who),
        simulated: false,
        chairman: expect.objectContaining({ modelKey: "chairman" }),
      },
    });

    const labels = rows[0].parsedData as Record<string, string>;
    const labelFor = (key: string) => Object.keys(labels).find((l) => labels[l] === MODEL[key])!;
    const [a, c] = [labelFor("claude"), labelFor("gemini")];
    const tallies = { [a]: 2, [c]: 1 };
    const times = rows.filter((r) => r.stageType === "collect" || r.stageType === "vote").map((r) => r.responseTimeMs);
    expect(times.every((t) => typeof t === "number" && t >= 0)).toBe(true);
    const t = (i: number) => times[i];
    expect(shape(rows)).toEqual([
      { stageType: "label_map", stageOrder: 0, seq: 0, model: null, role: null, content: JSON.stringify(labels), parsedData: labels, responseTimeMs: null },
      ...["claude", "o3", "gemini"].map((k, i) => ({
        stageType: "collect",
        stageOrder: 1,
        seq: i,
        model: MODEL[k],
        role: "respondent",
        content: answers[k],
        parsedData: { responseTimeMs: t(i) },
        responseTimeMs: t(i),
      })),
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
    // The seed's fields, and the winner's participant key (an addition).
    expect(result.winner).toEqual({
      winnerLabel: a,
      winnerModel: MODEL.claude,
      winnerKey: "claude",
      winnerResponse: answers.claude,
      voteCount: 2,
      totalVotes: 3,
      tiebroken: false,
      tiebreakerModel: undefined,
    });
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
    const events = await runSse(
      await postDeliberate(url, {
        question: "Tabs or spaces?",
        mode: "vote",
        modeConfig: { councilModels: ["claude", "o3", "gemini"], chairmanModel: "sonar" },
      }),
    );
    const rows = await history.stagesOf(runIdOf(events));
    expect(rows.map((r) => [r.stageType, r.stageOrder])).toEqual([
      ["vote_panel", -1],
      ["label_map", 0],
      ["collect", 1],
      ["collect", 1],
      ["collect", 1],
      ["vote", 2],
      ["vote", 2],
      ["vote", 2],
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

  it.skipIf(skip)('reproduces seed 000 §G: the /revise rows (stored as mode "debate") and loadDebateResult', async () => {
    // The seed's example: word counts 420→510 REVISE, 380→380 STAND, 350→580 MERGE, 400→470 REVISE.
    const original: Record<string, string> = {
      claude: text("Yes, companies should seriously consider a 4-day work week.", 420),
      o3: text("The 4-day work week has pros and cons.", 380),
      gemini: text("Research shows mixed results for 4-day work weeks.", 350),
      sonar: text("Several major trials of the 4-day work week have shown gains.", 400),
    };
    const revision: Record<string, { decision: string; reasoning: string; revised: string }> = {
      claude: {
        decision: "REVISE",
        reasoning: "Response B raised important industry-specific concerns that my original response glossed over",
        revised: text("Yes, but with caveats for each industry.", 510),
      },
      o3: { decision: "STAND", reasoning: "My balanced analysis already covered the key points raised by other responses", revised: original.o3 },
      gemini: {
        decision: "MERGE",
        reasoning: "Combining the empirical data from Response D with practical guidance from Response A creates a stronger answer",
        revised: text("A comprehensive look at the 4-day work week.", 580),
      },
      sonar: {
        decision: "REVISE",
        reasoning: "Other responses prompted me to add implementation guidance alongside the research data",
        revised: text("Several major trials have shown promising results.", 470),
      },
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
    const events = await runSse(
      await postDeliberate(url, { question: "Should companies adopt a 4-day work week?", mode: "debate", modeConfig: { models: keys } }),
    );
    const id = runIdOf(events);
    const [panel, ...rows] = await history.stagesOf(id);
    expect(panel).toMatchObject({
      stageType: "debate_panel",
      stageOrder: -1,
      parsedData: { question: "Should companies adopt a 4-day work week?", antiAnchoring: false, simulated: false },
    });

    const round1 = rows[0].parsedData as Record<string, string>;
    const revised = rows.find((r) => r.stageType === "revised_label_map")!.parsedData as Record<string, string>;
    expect(Object.values(round1).sort()).toEqual(Object.values(MODEL).sort());
    expect(Object.values(revised).sort()).toEqual(Object.values(MODEL).sort());
    const revisedLabel = (k: string) => Object.keys(revised).find((l) => revised[l] === MODEL[k])!;
    const tallies = { [revisedLabel("gemini")]: 3, [revisedLabel("claude")]: 1 };
    const time = (type: string, i: number) => rows.filter((r) => r.stageType === type)[i].responseTimeMs;
    expect(shape(rows)).toEqual([
      {
        stageType: "round1_label_map",
        stageOrder: 0,
        seq: 0,
        model: null,
        role: null,
        content: JSON.stringify(round1),
        parsedData: round1,
        responseTimeMs: null,
      },
      ...keys.map((k, i) => ({
        stageType: "initial_answer",
        stageOrder: 1,
        seq: i,
        model: MODEL[k],
        role: "respondent",
        content: original[k],
        parsedData: { responseTimeMs: time("initial_answer", i) },
        responseTimeMs: time("initial_answer", i),
      })),
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
      {
        stageType: "revised_label_map",
        stageOrder: 4,
        seq: 0,
        model: null,
        role: null,
        content: JSON.stringify(revised),
        parsedData: revised,
        responseTimeMs: null,
      },
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
    expect(result.revisions.map((r) => [r.decision, r.originalResponse, r.revisedResponse, r.parseSuccess])).toEqual(
      keys.map((k) => [revision[k].decision, original[k], revision[k].revised, true]),
    );
    expect(result.revisionSummary).toEqual({ totalModels: 4, revised: 2, stood: 1, merged: 1, parseFailed: 0 });
    expect(result.votes).toMatchObject({ tallies, revisedLabelToModel: revised, validVoteCount: 4, isTie: false });
    expect(result.winner).toEqual({
      winnerLabel: revisedLabel("gemini"),
      winnerModel: MODEL.gemini,
      winnerKey: "gemini",
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
    const events = await runSse(
      await postDeliberate(url, { question: "Undecidable?", mode: "vote", modeConfig: { councilModels: ["claude", "o3", "gemini"] } }),
    );
    const id = runIdOf(events);
    expect((await history.stagesOf(id)).map((r) => r.stageType)).toEqual([
      "vote_panel",
      "label_map",
      "collect",
      "collect",
      "collect",
      "vote",
      "vote",
      "vote",
      "vote_tally",
    ]);
    const [question, answer] = await history.messagesOf(id);
    expect(question.content).toBe("Undecidable?");
    expect(answer).toMatchObject({ status: "error", error: "All votes failed to parse.", content: "" });
  });

  it.skipIf(skip)("files nothing for a message that only gets an explanation (a command without its topic, an unknown option)", async () => {
    const { url, history, models } = await app();
    for (const message of ["/debatt", "/vote --nope Fråga?", "/compare   "]) {
      const events = await runSse(await postChat(url, { message }));
      expect(events.map((e) => e.event)).toEqual(["metadata", "error", "done"]);
    }
    expect((await history.listConversations(["local"], 10)).conversations).toEqual([]);
    expect(models.calls).toHaveLength(0);
  });

  it.skipIf(skip)("keeps a failed /debatt turn's streamed text and word count, and a failed /compare answer's", async () => {
    const partial = "Half an answer before the connection dropped";
    const { url, history } = await app(
      withOverrides((req) =>
        (req.phase === "turn" && req.participant!.key === "call_gpt" && req.round === 2) || (req.phase === "compare" && req.participant!.key === "call_gpt")
          ? { text: partial, error: new Error("connection reset"), failAfterText: true }
          : undefined,
      ),
      defaultRoster(),
    );
    const events = await runSse(await postChat(url, { message: "/debatt Bör AI regleras?", participants: THREE }));
    const id = String(events.find((e) => e.event === "debate-init")!.data.debate_id);
    const failed = (await history.stagesOf(id)).filter((r) => r.stageType === "debatt_answer" && (r.parsedData as { status: string }).status === "error");
    expect(failed.map((r) => [r.content, r.parsedData])).toEqual([
      [partial, expect.objectContaining({ display: "ChatGPT", round: 2, wordCount: 7, error: "connection reset" })],
    ]);

    const compared = await runSse(await postChat(url, { message: "/compare Bör AI regleras?", participants: THREE }));
    expect(compared.find((e) => e.event === "compare-answer-end" && e.data.model === "ChatGPT")!.data).toMatchObject({ status: "error", word_count: 7 });
    const answers = (await history.stagesOf(runIdOf(compared))).filter((r) => r.content === partial);
    expect(answers).toHaveLength(1);
  });

  it.skipIf(skip)(
    "writes /debatt's rows: participants, each round's answers with word counts and latency, votes, results, convergence, synthesis",
    async () => {
      const { url, history } = await app(undefined, defaultRoster());
      const events = await runSse(await postChat(url, { message: "/debatt Bör AI regleras?", participants: THREE }));
      const id = String(events.find((e) => e.event === "debate-init")!.data.debate_id);
      expect(id).toBe(runIdOf(events));
      const rows = await history.stagesOf(id);

      expect(rows.map((r) => r.stageType)).toEqual([
        "debatt_participants",
        ...Array(9).fill("debatt_answer"),
        ...Array(3).fill("debatt_vote"),
        "debatt_results",
        "debatt_convergence",
        "debatt_synthesis",
      ]);
      expect(rows[0].parsedData).toEqual({
        topic: "Bör AI regleras?",
        voiceMode: false,
        totalRounds: 4,
        participants: defaultRoster()
          .filter((p) => THREE.includes(p.key))
          .map(({ key, display, model }) => ({ key, display, model })),
        simulated: false,
      });
      const ends = events.filter((e) => e.event === "debate-participant-end");
      expect(rows.filter((r) => r.stageType === "debatt_answer").map((r) => [r.stageOrder, r.seq, r.content, r.parsedData, r.responseTimeMs])).toEqual(
        ends.map((e) => [
          e.data.round,
          e.data.position,
          answerOf(e.data.model, e.data.round),
          {
            round: e.data.round,
            position: e.data.position,
            modelKey: e.data.model_key,
            display: e.data.model,
            status: "ok",
            wordCount: e.data.word_count,
            latencyMs: e.data.latency_ms,
          },
          e.data.latency_ms,
        ]),
      );
      const votes = events.filter((e) => e.event === "debate-vote-result").map((e) => e.data);
      expect(
        rows
          .filter((r) => r.stageType === "debatt_vote")
          .map((r) => r.parsedData)
          .sort((a: any, b: any) => a.voter.localeCompare(b.voter)),
      ).toEqual(
        votes
          .map((v) => ({ voter: v.voter, votedFor: v.voted_for, motivation: v.motivation, bullets: v.bullets, valid: true }))
          .sort((a, b) => a.voter.localeCompare(b.voter)),
      );
      const { timestamp, ...results } = events.find((e) => e.event === "debate-results")!.data;
      expect(rows.find((r) => r.stageType === "debatt_results")!.parsedData).toMatchObject(results);
      expect(rows.find((r) => r.stageType === "debatt_convergence")!.parsedData).toMatchObject({ merged_summary: "They mostly agreed.", overlap_score: 0.6 });
      const synthesis = rows.at(-1)!;
      expect(synthesis.content).toContain("A fine debate.");

      const full = await (await fetch(`${url}/api/v1/debates/${id}`)).json();
      expect(full).toMatchObject({
        id,
        conversationId: id,
        mode: "debatt",
        status: "complete",
        question: "/debatt Bör AI regleras?",
        content: synthesis.content,
      });
      expect(full.result.rounds.map((r: any) => r.answers.length)).toEqual([3, 3, 3]);
      expect(full.result.votes).toHaveLength(3);
      expect(full.result.results.winner).toBe(results.winner);
      expect(full.result.synthesis).toBe(synthesis.content);
    },
  );

  it.skipIf(skip)("files /dvoice as its own mode, spoken or not", async () => {
    const { url, history } = await app(undefined, defaultRoster());
    const events = await runSse(await postChat(url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));
    const id = runIdOf(events);
    expect((await history.conversation(id))!.mode).toBe("dvoice");
    expect((await history.stagesOf(id))[0].parsedData).toMatchObject({ voiceMode: true });
    expect((await (await fetch(`${url}/api/v1/debates/${id}`)).json()).mode).toBe("dvoice");
  });

  it.skipIf(skip)("writes /deep's, /council's, /compare's and chat's rows", async () => {
    const { url, history } = await app(undefined, defaultRoster());
    const deep = runIdOf(
      await runSse(await postDeliberate(url, { question: "Monolith or services?", mode: "deep", modeConfig: { models: ["call_grok", "call_claude"] } })),
    );
    expect((await history.stagesOf(deep)).map((r) => [r.stageType, r.stageOrder])).toEqual([
      ["deep_panel", -1],
      ["deep_label_map", 0],
      ["deep_initial_answer", 1],
      ["deep_initial_answer", 1],
      ["deep_argument", 2],
      ["deep_argument", 2],
      ["deep_moderation", 3],
      ["deep_argument", 4],
      ["deep_argument", 4],
      ["deep_moderation", 5],
      ["deep_synthesis", 8],
    ]);
    const deepResult = (await (await fetch(`${url}/api/v1/debates/${deep}`)).json()).result;
    expect(deepResult.rounds.map((r: any) => [r.round, r.arguments.length, r.reason])).toEqual([
      [1, 2, "continue"],
      [2, 2, "all_no_change"],
    ]);
    expect(deepResult.synthesis).toContain("The debaters converged.");

    const council = runIdOf(await runSse(await postDeliberate(url, { question: "Ship it?", mode: "council", modeConfig: { models: THREE, debate: true } })));
    expect((await history.stagesOf(council)).map((r) => [r.stageType, r.stageOrder])).toEqual([
      ["council_panel", -1],
      ...Array(3).fill(["council_verdict", 1]),
      ...Array(3).fill(["council_verdict", 2]),
      ["council_result", 3],
    ]);
    expect((await history.message(council))!.content).toContain("The council agrees.");

    const compare = runIdOf(await runSse(await postChat(url, { message: "/compare Tabs or spaces?", participants: THREE })));
    const [comparePanel, ...answers] = await history.stagesOf(compare);
    expect(comparePanel).toMatchObject({ stageType: "compare_panel", parsedData: { question: "Tabs or spaces?" } });
    expect(answers.map((r) => [r.stageType, r.model, r.content])).toEqual(
      defaultRoster()
        .filter((p) => THREE.includes(p.key))
        .map((p) => ["compare_answer", p.model, `${p.display} answers: it depends on the details.`]),
    );
    expect((await history.conversation(compare))!.mode).toBe("compare");

    const chat = runIdOf(await runSse(await postChat(url, { message: "Hej!" })));
    expect(await history.stagesOf(chat)).toEqual([]);
    expect((await history.messagesOf(chat)).map((m) => [m.role, m.content])).toEqual([
      ["user", "Hej!"],
      ["assistant", "Hello from the supervisor."],
    ]);
    expect((await history.conversation(chat))!).toMatchObject({ mode: "chat", title: "Hej!" });
  });

  it.skipIf(skip)("lists conversations newest first in pages, fetches one with every message and result, and deletes one with all its rows", async () => {
    const { url, history, checkpointer } = await app(undefined, defaultRoster());
    const ids: string[] = [];
    for (const message of ["Första?", "Andra?", "Tredje?"]) {
      ids.push(runIdOf(await runSse(await postChat(url, { message }))));
      await new Promise((r) => setTimeout(r, 5)); // distinct creation times
    }
    const page1 = await (await fetch(`${url}/api/v1/conversations?limit=2`)).json();
    expect(page1.conversations.map((c: any) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page1.conversations[0]).toMatchObject({ title: "Tredje?", mode: "chat" });
    const page2 = await (await fetch(`${url}/api/v1/conversations?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2).toEqual({ conversations: [expect.objectContaining({ id: ids[0] })], nextCursor: null });

    // A multi-turn /vote conversation: the follow-up is filed in the same conversation.
    const first = await runSse(await postDeliberate(url, { question: "Bästa språket?", mode: "vote", modeConfig: { councilModels: THREE } }));
    const conversationId = String(first[0].data.thread_id);
    const second = await runSse(await postDeliberate(url, { question: "Och för skript?", mode: "vote", conversationId, modeConfig: { councilModels: THREE } }));
    const got = await (await fetch(`${url}/api/v1/conversations/${conversationId}`)).json();
    expect(got).toMatchObject({ id: conversationId, mode: "vote", title: "A Scripted Title" });
    expect(got.messages.map((m: any) => [m.role, m.role === "user" ? m.content : m.id])).toEqual([
      ["user", "Bästa språket?"],
      ["assistant", runIdOf(first)],
      ["user", "Och för skript?"],
      ["assistant", runIdOf(second)],
    ]);
    expect(got.messages[3]).toMatchObject({ status: "complete", mode: "vote", result: { winner: { totalVotes: 3 } } });
    expect(got.messages[3].result.stage1).toHaveLength(3);

    // Delete: every row of the conversation goes, and its checkpoints; other conversations stay.
    const count = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await db.rows(t)).length])));
    const before = await count();
    const del = await fetch(`${url}/api/v1/conversations/${conversationId}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await count()).toEqual({
      conversations: before.conversations - 1,
      messages: before.messages - 4,
      deliberation_stages: before.deliberation_stages - 2 * 10,
    });
    const left = JSON.stringify(await Promise.all(TABLES.map((t) => db.rows(t))));
    expect(left).not.toContain(conversationId);
    expect(left).not.toContain("Bästa språket?");
    expect(await checkpointer.getTuple({ configurable: { thread_id: conversationId } })).toBeUndefined();
    expect((await fetch(`${url}/api/v1/conversations/${conversationId}`)).status).toBe(404);
    expect((await (await fetch(`${url}/api/v1/conversations/${conversationId}`, { method: "DELETE" })).json()).error.code).toBe("conversation_not_found");
    expect((await (await fetch(`${url}/api/v1/debates/${runIdOf(second)}`)).json()).error.code).toBe("debate_not_found");
    expect(await history.conversation(ids[0])).toBeDefined();
  });

  it.skipIf(skip)("takes conversationId on the chat request too: a follow-up with the seeds' checks, filed in the same conversation", async () => {
    const { url, history } = await app(undefined, defaultRoster());
    const first = await runSse(await postChat(url, { message: "/vote Bästa språket?", participants: THREE }));
    const conversationId = String(first[0].data.thread_id);
    const error = async (body: object) => {
      const res = await postChat(url, body);
      return [res.status, (await res.json()).error.code];
    };
    expect(await error({ message: "/revise Bästa språket?", conversationId })).toEqual([400, "mode_mismatch"]);
    expect(await error({ message: "/vote Och för skript?", conversationId: "never-started" })).toEqual([404, "conversation_not_found"]);
    expect(await error({ message: "/vote Och för skript?", conversationId, threadId: conversationId })).toEqual([400, "invalid_body"]);
    const revise = String((await runSse(await postChat(url, { message: "/revise Fyra dagar?", participants: THREE })))[0].data.thread_id);
    expect(await error({ message: "/revise Och fem?", conversationId: revise })).toEqual([400, "follow_up_unsupported"]);

    const second = await runSse(await postChat(url, { message: "/vote Och för skript?", conversationId, participants: THREE }));
    expect(second.at(-1)!.event).toBe("done");
    expect(second.some((e) => e.event === "error")).toBe(false);
    expect((await history.messagesOf(conversationId)).map((m) => m.content).filter((_, i) => i % 2 === 0)).toEqual([
      "/vote Bästa språket?",
      "/vote Och för skript?",
    ]);
  });

  it.skipIf(skip)("deletes a conversation whose run is still going: the run stops, nothing of it stays, and its id can never be used again", async () => {
    // ChatGPT's answer does not come, so the /compare is still going when its conversation is deleted.
    const { url, models, checkpointer } = await app(
      withOverrides((req) => (req.participant?.key === "call_gpt" ? { text: "late", latencyMs: 600_000 } : undefined)),
      defaultRoster(),
    );
    const events: SseEvent[] = [];
    let runId = "";
    let answered!: () => void;
    const twoAnswered = new Promise<void>((resolve) => (answered = resolve));
    const reading = readSse(await postChat(url, { message: "/compare Bästa språket?", participants: THREE }), (e) => {
      events.push(e);
      if (e.event === "metadata") runId = String(e.data.run_id);
      if (events.filter((x) => x.event === "compare-answer-end").length === 2) answered();
    });
    // Deleted once two answers have come and ChatGPT's is still awaited.
    await twoAnswered;
    const conversationId = String(events[0].data.thread_id);
    expect((await fetch(`${url}/api/v1/conversations/${conversationId}`, { method: "DELETE" })).status).toBe(204);
    // The run stops at once: its hanging call is aborted, and it says why.
    await reading;
    expect(events.at(-1)!.event).toBe("done");
    expect(events.find((e) => e.event === "error")!.data).toMatchObject({ code: "cancelled", message: expect.stringContaining("was deleted") });
    expect(models.calls.filter((c) => c.participant === "call_gpt")).toHaveLength(1);
    // Nothing of it is kept: no row, no checkpoint (not even those saved as it stopped), no replay.
    await vi.waitFor(async () => expect(await checkpointer.getTuple({ configurable: { thread_id: conversationId } })).toBeUndefined(), {
      timeout: 60_000,
      interval: 50,
    });
    const left = JSON.stringify(await Promise.all(TABLES.map((t) => db.rows(t))));
    expect(left).not.toContain(conversationId);
    expect(left).not.toContain("Bästa språket?");
    expect((await (await fetch(`${url}/api/v1/debates/${runId}/events`)).json()).error.code).toBe("run_not_found");
    // And its id is nobody's for good: not resumed, not continued, not started again, not listed.
    const resumed = await fetch(`${url}/api/v1/debates/${conversationId}/resume`, { method: "POST" });
    expect([resumed.status, (await resumed.json()).error.code]).toEqual([409, "nothing_to_resume"]);
    const again = await postChat(url, { message: "/compare Och för skript?", conversationId, participants: THREE });
    expect([again.status, (await again.json()).error.code]).toEqual([404, "conversation_not_found"]);
    const reused = await postChat(url, { message: "/compare Och för skript?", threadId: conversationId, participants: THREE });
    expect(reused.status).toBe(404);
    await reused.body?.cancel();
    expect(await db.history.conversation(conversationId)).toBeUndefined();
  });

  it.skipIf(skip)("deletes a spoken debate's replay log and audio with its conversation", async () => {
    const speech = new FakeSpeech(() => ({}));
    const audioDir = mkdtempSync(join(tmpdir(), "debatt-audio-"));
    hooks.later(async () => rmSync(audioDir, { recursive: true, force: true }));
    const { url } = await app(undefined, defaultRoster(), (deps) => {
      deps.speech = () => speech;
      deps.audio = new AudioArchive(audioDir, () => {});
    });
    const id = runIdOf(await runSse(await postChat(url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] })));
    expect((await fetch(`${url}/api/v1/debates/${id}/audio.wav`)).status).toBe(200);
    const replay = await fetch(`${url}/api/v1/debates/${id}/events`);
    expect(replay.status).toBe(200);
    await replay.body?.cancel();

    expect((await fetch(`${url}/api/v1/conversations/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(`${url}/api/v1/debates/${id}/audio.wav`)).status).toBe(404);
    expect((await (await fetch(`${url}/api/v1/debates/${id}/events`)).json()).error.code).toBe("run_not_found");
    expect(readdirSync(audioDir)).toEqual([]);
  });

  it.skipIf(skip)("answers bad history requests with errors that name the problem", async () => {
    const { url } = await app(undefined, defaultRoster());
    const error = async (path: string, init?: RequestInit) => {
      const res = await fetch(`${url}${path}`, init);
      return [res.status, (await res.json()).error.code];
    };
    expect(await error("/api/v1/conversations?limit=0")).toEqual([400, "invalid_limit"]);
    expect(await error("/api/v1/conversations?limit=101")).toEqual([400, "invalid_limit"]);
    expect(await error("/api/v1/conversations?limit=ten")).toEqual([400, "invalid_limit"]);
    expect(await error("/api/v1/conversations?cursor=bm90IGEgY3Vyc29y")).toEqual([400, "invalid_cursor"]);
    expect(await error("/api/v1/conversations/nope")).toEqual([404, "conversation_not_found"]);
    expect(await error("/api/v1/conversations/bad%20id")).toEqual([400, "invalid_conversation_id"]);
    expect(await error("/api/v1/debates/nope")).toEqual([404, "debate_not_found"]);
    expect(await error("/api/v1/conversations/nope", { method: "DELETE" })).toEqual([404, "conversation_not_found"]);
  });

  it.skipIf(skip)("never writes API keys or the admin token to the history or the checkpoints", async () => {
    const secrets = { openaiApiKey: "sk-openai-SENTINEL-1", tavilyApiKey: "tvly-SENTINEL-2", ttsApiKey: "sk-tts-SENTINEL-3", adminToken: "admin-SENTINEL-4" };
    const voiceKey = "sk-voice-SENTINEL-5";
    const { url, checkpointer } = await app(undefined, defaultRoster(), (deps) => {
      deps.settings = { ...deps.settings, ...secrets, settingsEncryptionKey: "22".repeat(32) };
      deps.voiceSettings = new VoiceSettingsStore(new MemoryValueStore(), "22".repeat(32));
    });
    const put = await fetch(`${url}/api/v1/admin/debate/voice-settings`, {
      method: "PUT",
      headers: { authorization: `Bearer ${secrets.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ api_key: voiceKey }),
    });
    expect(put.status).toBe(200);
    await runSse(
      await postChat(
        url,
        { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] },
        { headers: { "content-type": "application/json", authorization: `Bearer ${secrets.adminToken}` } },
      ),
    );
    await runSse(await postDeliberate(url, { question: "Bästa språket?", mode: "vote", modeConfig: { councilModels: THREE } }));
    await runSse(await postChat(url, { message: "Hej!" }));

    const stored = JSON.stringify(await Promise.all(TABLES.map((t) => db.rows(t))));
    expect(stored).toContain("Bör AI regleras?"); // the scan sees the runs
    const checkpoints: string[] = [];
    for await (const c of checkpointer.list({})) checkpoints.push(JSON.stringify(c));
    expect(checkpoints.join("")).toContain("Bästa språket?");
    for (const secret of [...Object.values(secrets), voiceKey]) {
      expect(stored).not.toContain(secret);
      expect(checkpoints.join("")).not.toContain(secret);
    }
  });
});

describe("a conversation's first title", () => {
  it("is its first question without the command and options, on one line, at most 80 characters", () => {
    expect(titleOf("/council --debate   Ship it\nnow?")).toBe("Ship it now?");
    expect(titleOf("Hej!")).toBe("Hej!");
    expect(titleOf("/debatt")).toBe("/debatt");
    // An option's value is not the question's first word.
    expect(titleOf("/debatt --order simultaneous Should we switch to a four-day week?")).toBe("Should we switch to a four-day week?");
    expect(titleOf("/dvoice --paced off --order sequential Bör AI regleras?")).toBe("Bör AI regleras?");
    expect(titleOf("/compare Tea or coffee?")).toBe("Tea or coffee?");
    const long = titleOf(`/debatt ${"ord ".repeat(40)}`);
    expect([...long].length).toBeLessThanOrEqual(80);
    expect([...long].length).toBeGreaterThan(70);
    // Cut at a word boundary, with an ellipsis.
    expect(long).toMatch(/^(ord )+ord…$/);
  });
});
