import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../state/events.js";
import { emptyArena, reduce, splitSynthesis, type ArenaState } from "../web/arena-state.js";
import { progress } from "../web/debate-progress.js";
import { storedEvents } from "../web/stored-events.js";
import { runEvents, testDeps } from "./support/harness.js";

describe("the arena's state", () => {
  it("is built from a whole debate's events: cards per round, votes, results, synthesis without the data block", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/debatt Bör AI regleras?", { participants: ["call_grok", "call_claude", "call_gpt"] });

    const states = events.map((_, i) => events.slice(0, i + 1).reduce(reduce, emptyArena()));
    const s = states.at(-1)!;

    expect(s.participants.map((p) => p.display)).toEqual(["Grok", "Claude", "ChatGPT"]);
    expect(Object.values(s.cards).every((c) => [1, 2, 3].every((r) => c.rounds[r].status === "ok" && c.rounds[r].text.length > 0))).toBe(true);
    expect(s.cards.call_grok.rounds[2].text).toBe(
      "Grok says in round 2: arguments point point point point point point point point point point point point point point point point point point point point done.",
    );
    expect(s.roundsDone).toEqual([1, 2, 3, 4]);
    expect(s.votes).toHaveLength(3);
    expect(s.results?.winner).toBeDefined();
    expect(s.synthesis).not.toContain("debate-arena-data");
    expect(s.arenaData).toMatchObject({ debate_analysis: expect.any(Object) });
    expect(s.done).toBe(true);
    expect(progress(s)).toBe(100);
    // Progress only ever grows, and a speaker is marked while it speaks.
    const ps = states.map(progress);
    expect(ps.every((p, i) => i === 0 || p >= ps[i - 1])).toBe(true);
    expect(states.some((x) => x.speaking.length === 1 && x.speaking[0] === "Claude")).toBe(true);
    expect(states.every((x) => x.speaking.length <= 1)).toBe(true);
  });

  it("marks every participant writing at once in a simultaneous round, each until its turn ends", () => {
    const who = (model: string) => ({ model, model_key: `call_${model.toLowerCase()}`, round: 1 });
    const events = [
      {
        event: "debate-init",
        data: {
          participants: [
            { key: "call_a", display: "A" },
            { key: "call_b", display: "B" },
          ],
          topic: "T",
          total_rounds: 4,
          voice_mode: false,
          debate_id: "d",
          simulated: false,
          order: "simultaneous",
        },
      },
      { event: "debate-round-start", data: { round: 1, type: "introduction", order: ["A", "B"] } },
      { event: "debate-participant-start", data: { ...who("A"), position: 1 } },
      { event: "debate-participant-start", data: { ...who("B"), position: 2 } },
      { event: "debate-participant-delta", data: { ...who("B"), delta: "b1 " } },
      { event: "debate-participant-delta", data: { ...who("A"), delta: "a1 " } },
      { event: "debate-participant-delta", data: { ...who("B"), delta: "b2" } },
      { event: "debate-participant-end", data: { ...who("B"), position: 2, word_count: 2, latency_ms: 5, response_preview: "", status: "ok" } },
    ] as ClientEvent[];
    const states = events.reduce<ArenaState[]>((all, e) => [...all, reduce(all.at(-1) ?? emptyArena(), e)], []);
    expect(states[3].speaking).toEqual(["A", "B"]);
    const last = states.at(-1)!;
    expect(last.speaking).toEqual(["A"]);
    expect([last.cards.call_a.rounds[1].text, last.cards.call_b.rounds[1].text]).toEqual(["a1 ", "b1 b2"]);
  });

  it("waits for the whole arena-data block before parsing it", () => {
    expect(splitSynthesis("```debate-ar")).toEqual({ markdown: "", pending: true });
    expect(splitSynthesis('```debate-arena-data\n{"a": 1}\n```\n\n## Rubrik')).toEqual({ data: { a: 1 }, markdown: "## Rubrik", pending: false });
    expect(splitSynthesis("## Bara text").markdown).toBe("## Bara text");
  });

  it("keeps a plain chat answer apart from debates, and records errors", () => {
    const s = [
      { event: "text-delta", data: { delta: "Hej " } },
      { event: "text-delta", data: { delta: "där" } },
      { event: "error", data: { message: "boom", code: "model_error" } },
    ].reduce((state, e) => reduce(state, e as ClientEvent), emptyArena());
    expect(s.chat).toBe("Hej där");
    expect(s.error).toEqual({ message: "boom", code: "model_error" });
  });
});

describe("a stopped debate, reopened", () => {
  const seats = [
    { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
    { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5" },
  ];
  const turn = (key: string, display: string, position: number) => ({
    modelKey: key,
    display,
    text: "Yes.",
    position,
    status: "ok",
    wordCount: 1,
    latencyMs: 5,
  });
  const reopened = (rounds: { round: number; answers: ReturnType<typeof turn>[] }[], stopped: boolean) =>
    storedEvents("d", "debatt", { participants: seats, rounds, votes: [] }, "/debatt T", undefined, stopped)!.reduce(reduce, emptyArena());

  it("shows the round it stopped in, as the live view did: begun and not ended", () => {
    // Stopped before anyone spoke: round 1 had begun.
    const none = reopened(
      [
        { round: 1, answers: [] },
        { round: 2, answers: [] },
        { round: 3, answers: [] },
      ],
      true,
    );
    expect({ round: none.round, done: none.roundsDone }).toEqual({ round: 1, done: [] });
    // Stopped in round 1 after one of two turns: round 1 is not ended.
    const half = reopened(
      [
        { round: 1, answers: [turn("call_grok", "Grok", 1)] },
        { round: 2, answers: [] },
        { round: 3, answers: [] },
      ],
      true,
    );
    expect({ round: half.round, done: half.roundsDone }).toEqual({ round: 1, done: [] });
    // Stopped between rounds 1 and 2: round 2 had begun.
    const whole = [turn("call_grok", "Grok", 1), turn("call_claude", "Claude", 2)];
    const between = reopened(
      [
        { round: 1, answers: whole },
        { round: 2, answers: [] },
        { round: 3, answers: [] },
      ],
      true,
    );
    expect({ round: between.round, done: between.roundsDone }).toEqual({ round: 2, done: [1] });
    // A run that was not stopped (it failed, say) shows no round it never began.
    const failed = reopened(
      [
        { round: 1, answers: whole },
        { round: 2, answers: [] },
        { round: 3, answers: [] },
      ],
      false,
    );
    expect({ round: failed.round, done: failed.roundsDone }).toEqual({ round: 1, done: [1] });
  });
});

describe("an answer's notes on its card", () => {
  const SOURCES = [{ url: "https://example.org/a", title: "A" }, { url: "https://example.org/b" }];
  const NOTES = { reasoning: "First I weigh the costs.", sources: SOURCES, ending: "length" as const };
  const feed = (events: unknown[]) => (events as ClientEvent[]).reduce(reduce, emptyArena());
  const who = (round: number) => ({ model: "Grok", model_key: "call_grok", round });
  const init = {
    event: "debate-init",
    data: { participants: [{ key: "call_grok", display: "Grok" }], topic: "T", total_rounds: 4, voice_mode: false, debate_id: "d", simulated: false },
  };
  const end = (round: number, extra: object) => ({
    event: "debate-participant-end",
    data: { ...who(round), position: 1, word_count: 3, latency_ms: 5, response_preview: "", status: "ok", ...extra },
  });
  const panel = [
    { modelKey: "call_grok", display: "Grok", model: "x-ai/grok-4" },
    { modelKey: "call_claude", display: "Claude", model: "anthropic/claude" },
  ];
  const stage1 = {
    data: [{ model: "x-ai/grok-4", response: "Yes [1].", responseTimeMs: 7, display: "Grok", modelKey: "call_grok", ...NOTES }],
    failed: [{ ...panel[1], error: "refused: I can't help with that" }],
  };

  it("keeps a /debatt turn's reasoning, sources and ending, and a refusal's ending, per round", () => {
    const s = feed([
      init,
      { event: "debate-participant-start", data: { ...who(1), position: 1 } },
      { event: "debate-participant-delta", data: { ...who(1), delta: "Cut [1]" } },
      end(1, NOTES),
      { event: "debate-participant-start", data: { ...who(2), position: 1 } },
      end(2, { status: "error", error: "refused: no", ending: "refused" }),
    ]);
    expect(s.cards.call_grok.rounds[1]).toEqual({ text: "Cut [1]", status: "ok", wordCount: 3, latencyMs: 5, ...NOTES });
    expect(s.cards.call_grok.rounds[2]).toMatchObject({ status: "error", error: "refused: no", ending: "refused" });
    expect(s.cards.call_grok.rounds[2].reasoning).toBeUndefined();
  });

  it("drops a turn's notes when the same turn ends again without them, and notes of the wrong shape", () => {
    const s = feed([init, end(1, NOTES), end(1, { reasoning: 42, sources: [{ title: "no url" }], ending: "bored" })]);
    expect(s.cards.call_grok.rounds[1]).toEqual({ text: "", status: "ok", wordCount: 3, latencyMs: 5 });
  });

  it("keeps a /compare answer's notes", () => {
    const w = { model: "Grok", model_key: "call_grok" };
    const s = feed([
      { event: "compare-start", data: { question: "Q", participants: [{ key: "call_grok", display: "Grok", model: "x-ai/grok-4" }], simulated: false } },
      { event: "compare-answer-start", data: w },
      { event: "compare-answer-delta", data: { ...w, delta: "Half" } },
      { event: "compare-answer-end", data: { ...w, word_count: 1, latency_ms: 9, status: "ok", ...NOTES, ending: "cut_off" } },
    ]);
    expect(s.compare!.answers.call_grok).toEqual({ text: "Half", status: "ok", wordCount: 1, latencyMs: 9, ...NOTES, ending: "cut_off" });
  });

  it("starts a /compare answer over at its start: a run taken up again after its server died asks it anew", () => {
    const w = { model: "Grok", model_key: "call_grok" };
    const s = feed([
      { event: "compare-start", data: { question: "Q", participants: [{ key: "call_grok", display: "Grok", model: "x-ai/grok-4" }], simulated: false } },
      { event: "compare-answer-start", data: w },
      { event: "compare-answer-delta", data: { ...w, delta: "Half an ans" } },
      { event: "compare-answer-start", data: w },
      { event: "compare-answer-delta", data: { ...w, delta: "A whole answer." } },
    ]);
    expect(s.compare!.answers.call_grok).toEqual({ text: "A whole answer.", status: "speaking" });
  });

  it("keeps the notes of /vote's, /revise's and /deep's first answers", () => {
    const start = { messageId: "m", conversationId: "c", question: "Q", participants: panel, simulated: false };
    const vote = feed([
      { event: "vote-start", data: { ...start, mode: "vote", chairman: panel[0] } },
      { event: "stage1-complete", data: stage1 },
    ]);
    const revise = feed([
      { event: "debate-start", data: { ...start, mode: "debate", antiAnchoring: false } },
      { event: "round1-complete", data: stage1 },
    ]);
    const deep = feed([
      { event: "deep-start", data: { ...start, mode: "deep", minRounds: 1, maxRounds: 2 } },
      { event: "stage1-complete", data: stage1 },
    ]);
    for (const answers of [vote.deliberation!.answers, revise.deliberation!.answers, deep.panel!.kind === "deep" ? deep.panel!.answers : {}]) {
      expect(answers.call_grok).toEqual({ text: "Yes [1].", status: "ok", latencyMs: 7, ...NOTES });
      expect(answers.call_claude).toEqual({ text: "", status: "error", error: "refused: I can't help with that" });
    }
  });

  it("keeps the notes of a reopened /debatt, /compare and /vote, as the history stores them", () => {
    const debatt = storedEvents(
      "d",
      "debatt",
      {
        participants: [{ key: "call_grok", display: "Grok", model: "x-ai/grok-4" }],
        rounds: [
          { round: 1, answers: [{ modelKey: "call_grok", display: "Grok", text: "Cut [1]", position: 1, status: "ok", wordCount: 2, latencyMs: 5, ...NOTES }] },
        ],
        votes: [],
      },
      "/debatt T",
    )!;
    expect(feed(debatt).cards.call_grok.rounds[1]).toMatchObject(NOTES);

    const compare = storedEvents(
      "c",
      "compare",
      { answers: [{ key: "call_grok", display: "Grok", text: "Half", status: "ok", word_count: 1, responseTimeMs: 9, ...NOTES }] },
      "/compare Q",
    )!;
    expect(feed(compare).compare!.answers.call_grok).toMatchObject(NOTES);

    const vote = storedEvents(
      "v",
      "vote",
      { participants: panel, stage1: [{ model: "x-ai/grok-4", modelKey: "call_grok", response: "Yes [1].", responseTimeMs: 7, ...NOTES }], stage1Failed: [] },
      "/vote Q",
    )!;
    expect(feed(vote).deliberation!.answers.call_grok).toMatchObject(NOTES);
  });
});
