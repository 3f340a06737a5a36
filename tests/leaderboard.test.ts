import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ballotsOfRun, displayNamesOf, loadBallots } from "../history/ballots.js";
import { HISTORY_FORMATS } from "../service/formats.js";
import type { RunStage } from "../history/store.js";
import type { LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { leaderboardSummary, translate } from "../state/messages/index.js";
import type { Participant } from "../state/participants.js";
import { renderVote } from "../state/replies/debate-vote.js";
import { withOverrides } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, postDeliberate, readSse, startApp } from "./support/http.js";
import type { Ballot } from "../state/leaderboard/ballots.js";
import { vendorOf } from "../state/leaderboard/ballots.js";
import { eloScore, fitChoices, rateWithIntervals, type Choice } from "../state/leaderboard/bradley-terry.js";
import { choiceOf, leaderboardOf, modelNames } from "../state/leaderboard/leaderboard.js";
import { seededRandom } from "../state/random.js";
import { measureBiases, normalCdf, poissonBinomialPValue } from "../state/leaderboard/vote-biases.js";

const pairs = (winner: string, loser: string, count: number): Choice => ({ set: [winner, loser], winner, count });

describe("the Bradley-Terry (Luce) fit", () => {
  it("matches a hand-computed Bradley-Terry example", () => {
    // A–B 2:1, B–C 2:1, A–C 4:1. π = (4, 2, 1) gives each model its observed wins as expected wins:
    // A: 3·4/6 + 5·4/5 = 6 = 2 + 4; B: 3·2/6 + 3·2/3 = 3 = 1 + 2; C: 3·1/3 + 5·1/5 = 2 = 1 + 1.
    const choices = [pairs("A", "B", 2), pairs("B", "A", 1), pairs("B", "C", 2), pairs("C", "B", 1), pairs("A", "C", 4), pairs("C", "A", 1)];
    const pi = fitChoices(choices, { prior: 0 });
    expect(pi.get("A")! / pi.get("B")!).toBeCloseTo(2, 6);
    expect(pi.get("B")! / pi.get("C")!).toBeCloseTo(2, 6);
    // Scaled to a geometric mean of 1: 4, 2, 1 over 2.
    expect(pi.get("B")).toBeCloseTo(1, 6);
    expect(eloScore(pi.get("A")!) - eloScore(pi.get("B")!)).toBeCloseTo(400 * Math.log10(2), 4);
  });

  it("gives two models the odds they won by, and a choice among several its shares", () => {
    const two = fitChoices([pairs("A", "B", 3), pairs("B", "A", 1)], { prior: 0 });
    expect(two.get("A")! / two.get("B")!).toBeCloseTo(3, 6);
    // One set of three, chosen 3, 2 and 1 times: Luce's estimate is proportional to the choices.
    const set = ["A", "B", "C"];
    const three = fitChoices(
      [
        { set, winner: "A", count: 3 },
        { set, winner: "B", count: 2 },
        { set, winner: "C", count: 1 },
      ],
      { prior: 0 },
    );
    expect(three.get("A")! / three.get("C")!).toBeCloseTo(3, 6);
    expect(three.get("B")! / three.get("C")!).toBeCloseTo(2, 6);
  });

  it("keeps a model that never won finite with the prior, below the others", () => {
    const pi = fitChoices([pairs("A", "B", 3), pairs("B", "C", 3), pairs("A", "C", 3)]);
    expect(pi.get("C")).toBeGreaterThan(0);
    expect(Number.isFinite(eloScore(pi.get("C")!))).toBe(true);
    expect(pi.get("A")).toBeGreaterThan(pi.get("B")!);
    expect(pi.get("B")).toBeGreaterThan(pi.get("C")!);
  });

  it("recovers a known true order from simulated histories, with 95 % intervals that hold the true ratings", () => {
    const truth: Record<string, number> = { m1: 8, m2: 4, m3: 2, m4: 1, m5: 0.5, m6: 0.25 };
    const models = Object.keys(truth);
    const mean = Math.exp(models.reduce((a, m) => a + Math.log(truth[m]), 0) / models.length);
    const trueScore = (m: string) => eloScore(truth[m] / mean);
    let covered = 0;
    let intervals = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const choices: Choice[] = [];
      for (let k = 0; k < 1500; k++) {
        // A random panel of 3–5 models (Fisher-Yates); the winner drawn as Luce's model says.
        const shuffled = [...models];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const panel = shuffled.slice(0, 3 + Math.floor(random() * 3));
        let at = random() * panel.reduce((a, m) => a + truth[m], 0);
        choices.push({ set: panel, winner: panel.find((m) => (at -= truth[m]) <= 0) ?? panel[panel.length - 1] });
      }
      const ratings = rateWithIntervals(choices, { prior: 1, resamples: 100, seed: 7 });
      expect(
        ratings.map((r) => r.model),
        `history ${seed}`,
      ).toEqual(models);
      for (const r of ratings) {
        expect(r.low).toBeLessThan(r.score);
        expect(r.high).toBeGreaterThan(r.score);
        intervals++;
        if (r.low < trueScore(r.model) && trueScore(r.model) < r.high) covered++;
      }
      // The same history gives the same intervals.
      if (seed === 1) expect(rateWithIntervals(choices, { prior: 1, resamples: 100, seed: 7 })).toEqual(ratings);
    }
    expect(covered / intervals).toBeGreaterThan(0.85);
  });
});

/** A ballot of `models` in that order, each `words` long, the voter choosing `chosen`. */
function ballot(voter: string, chosen: string, models: string[], options: Partial<Ballot> & { words?: number[] } = {}): Ballot {
  const { words, ...rest } = options;
  return {
    format: "vote",
    runId: "r",
    at: "2026-11-26T00:00:00.000Z",
    voter,
    chosen,
    chosenPosition: models.indexOf(chosen),
    candidates: models.map((model, position) => ({ model, position, words: words?.[position] ?? 100 })),
    namesKnown: false,
    simulated: false,
    ...rest,
  };
}

describe("the ballots' choices and biases", () => {
  it("leaves the voter's own answer out of its choice, and a vote for itself out of the fit", () => {
    expect(choiceOf(ballot("a/x", "b/y", ["a/x", "b/y", "c/z"]))).toEqual({ set: ["b/y", "c/z"], winner: "b/y" });
    expect(choiceOf(ballot("a/x", "a/x", ["a/x", "b/y", "c/z"]))).toBeUndefined();
    expect(choiceOf(ballot("a/x", "b/y", ["a/x", "b/y"]))).toBeUndefined();
  });

  it("finds a first-position bias that is there, and none where choices are random", () => {
    const random = seededRandom(3);
    const models = ["a/1", "b/2", "c/3", "d/4"];
    const biased = Array.from({ length: 200 }, () => ballot("e/5", random() < 0.6 ? models[0] : models[1 + Math.floor(random() * 3)], models));
    const fair = Array.from({ length: 200 }, () => ballot("e/5", models[Math.floor(random() * 4)], models));
    const first = (bs: Ballot[]) => measureBiases(bs).find((f) => f.id === "first_position")!;
    expect(first(biased)).toMatchObject({ ballots: 200, expected: 50, significant: true });
    expect(first(biased).observed).toBeGreaterThan(100);
    expect(first(fair).significant).toBe(false);
    expect(first(fair).p_value).toBeGreaterThan(0.05);
  });

  it("finds that the longest answer wins, and a voter's favour for its own vendor when it knew the names", () => {
    const random = seededRandom(5);
    const models = ["openai/a", "anthropic/b", "google/c"];
    const long = Array.from({ length: 60 }, () => {
      const words = models.map(() => 50 + Math.floor(random() * 400));
      return ballot("x/voter", models[words.indexOf(Math.max(...words))], models, { words });
    });
    const length = measureBiases(long).find((f) => f.id === "length")!;
    expect(length.observed).toBe(60);
    expect(length.correlation).toBeGreaterThan(0.5);
    expect(length.significant).toBe(true);
    const ownVendor = Array.from({ length: 40 }, () => ballot("openai/voter", "openai/a", models, { namesKnown: true }));
    const findings = measureBiases(ownVendor);
    expect(findings.find((f) => f.id === "own_vendor_named")).toMatchObject({ ballots: 40, observed: 40, significant: true });
    expect(findings.find((f) => f.id === "own_vendor_anonymous")).toMatchObject({ ballots: 0, p_value: null, significant: false });
  });

  it("gives no p-value on too few ballots", () => {
    const few = [ballot("e/5", "a/1", ["a/1", "b/2"])];
    expect(measureBiases(few).every((f) => f.p_value === null && !f.significant)).toBe(true);
  });

  it("names vendors from OpenRouter ids and plain ids", () => {
    expect(vendorOf("openai/gpt-5")).toBe("openai");
    expect(vendorOf("gpt-4o")).toBe("gpt");
    expect(vendorOf("Claude")).toBe("claude");
  });

  it("computes the normal distribution", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
  });

  it("puts the report together: ratings best first, wins and appearances, the biases", () => {
    const models = ["a/1", "b/2", "c/3"];
    const ballots = [
      ...Array.from({ length: 12 }, () => ballot("d/4", "a/1", models)),
      ...Array.from({ length: 4 }, () => ballot("d/4", "b/2", models)),
      ballot("a/1", "a/1", models),
    ];
    const report = leaderboardOf(ballots, { format: "vote", since: null });
    expect(report).toMatchObject({ runs: 1, ballots: 17, choices: 16, simulated_ballots: 0 });
    expect(report.models.map((m) => [m.model, m.wins, m.appearances])).toEqual([
      ["a/1", 12, 16],
      ["b/2", 4, 16],
      ["c/3", 0, 16],
    ]);
    expect(report.biases.map((b) => b.id)).toEqual(["first_position", "last_position", "length", "own_vendor_named", "own_vendor_anonymous"]);
  });
});

/** Four models of four vendors. */
const ROSTER: Participant[] = [
  { key: "claude", display: "Claude", model: "anthropic/claude-opus-4-6" },
  { key: "o3", display: "o3", model: "openai/o3" },
  { key: "gemini", display: "Gemini", model: "google/gemini-2.5-pro" },
  { key: "sonar", display: "Sonar", model: "perplexity/sonar-pro" },
];
const MODEL = Object.fromEntries(ROSTER.map((p) => [p.key, p.model]));
const THREE = ["claude", "o3", "gemini"];
/** Each model's first answer, of a length of its own. */
const ANSWER: Record<string, string> = { claude: "Claude answers at some length here.", o3: "o3 answers briefly.", gemini: "Gemini answers in six words." };
/** Who each voter votes for: Claude, but Claude votes for Gemini. */
const CHOICE: Record<string, string> = { claude: "gemini", o3: "claude", gemini: "claude" };

/** The label under which `key`'s answer appears in a ballot's prompt. */
function labelIn(messages: BaseMessage[], key: string): string {
  const prompt = messages.map((m) => String(m.content)).join("\n");
  const hit = [...prompt.matchAll(/--- (Response [A-Z]) ---\n([^\n]*)/g)].find((b) => b[2].startsWith(ANSWER[key]));
  if (!hit) throw new Error(`no answer of ${key} in the prompt`);
  return hit[1];
}

const voting = withOverrides((req, _i, messages) => {
  const key = req.participant?.key ?? "";
  if (req.phase === "answer") return ANSWER[key];
  if (req.phase === "ballot") return `Reasons.\nVOTE: ${labelIn(messages, CHOICE[key])}`;
  if (req.phase === "vote") {
    const display = ROSTER.find((p) => p.key === CHOICE[key])!.display;
    return renderVote({ voted_for: display, short_motivation: "clear", three_bullets: ["a", "b", "c"] });
  }
  return undefined;
});

describe.each(HISTORY_DATABASES)("the leaderboard of the history on $db", (database) => {
  const hooks = historyDatabaseHooks(database);

  it.skipIf(database.skip)("rates the models from the /vote and /debatt votes of the history, by format and date, and refuses bad filters", async () => {
    const db = await hooks.open();
    const { deps } = testDeps({ script: voting, settings: { roster: ROSTER } });
    const { url, close } = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
    hooks.later(close);
    for (let i = 0; i < 2; i++) {
      const res = await postDeliberate(url, { question: `Best language for web APIs (${i})?`, mode: "vote", modeConfig: { councilModels: THREE } });
      expect((await readSse(res)).events.at(-1)?.event).toBe("done");
    }
    expect((await readSse(await postChat(url, { message: "/debatt Bör AI regleras?", participants: THREE }))).events.at(-1)?.event).toBe("done");

    const ballots = await loadBallots(db.history, [LOCAL_OWNER]);
    expect(ballots.map((b) => [b.format, b.voter, b.chosen])).toEqual(
      [...THREE, ...THREE].map((k) => ["vote", MODEL[k], MODEL[CHOICE[k]]]).concat(THREE.map((k) => ["debatt", MODEL[k], MODEL[CHOICE[k]]])),
    );
    // A /vote voter reads all three answers, labelled A–C, each with its length; a /debatt voter the two others, by name.
    const vote = ballots[0];
    expect(vote.candidates.map((c) => c.position)).toEqual([0, 1, 2]);
    expect(Object.fromEntries(vote.candidates.map((c) => [c.model, c.words]))).toEqual(
      Object.fromEntries(THREE.map((k) => [MODEL[k], ANSWER[k].split(" ").length])),
    );
    expect(vote.namesKnown).toBe(false);
    const debatt = ballots[6];
    expect(debatt.candidates.map((c) => c.model).sort()).toEqual([MODEL.gemini, MODEL.o3].sort());
    expect(debatt.namesKnown).toBe(true);
    expect(debatt.candidates.every((c) => c.words! > 0 && c.position >= 0)).toBe(true);

    const get = async (query = "") => {
      const res = await fetch(`${url}/api/v1/leaderboard${query}`);
      return { status: res.status, body: (await res.json()) as LeaderboardReport & { error?: { code: string } } };
    };
    const all = (await get()).body;
    expect(all).toMatchObject({ runs: 3, ballots: 9, choices: 9, simulated_ballots: 0, filters: { format: null, since: null } });
    expect(all.models.map((m) => [m.model, m.wins, m.appearances])).toEqual([
      // Each could be chosen on the two ballots of the others, in each of the three runs.
      [MODEL.claude, 6, 6],
      [MODEL.gemini, 3, 6],
      [MODEL.o3, 0, 6],
    ]);
    // Each model by the name its runs showed, as the rest of the page names it.
    expect(all.models.map((m) => [m.model, m.display])).toEqual([
      [MODEL.claude, "Claude"],
      [MODEL.gemini, "Gemini"],
      [MODEL.o3, "o3"],
    ]);
    expect(all.models[0].low).toBeLessThanOrEqual(all.models[0].score);
    expect(all.biases.map((b) => b.id)).toEqual(["first_position", "last_position", "length", "own_vendor_named", "own_vendor_anonymous"]);

    expect((await get("?format=vote")).body).toMatchObject({ runs: 2, ballots: 6, filters: { format: "vote" } });
    expect((await get("?format=debatt")).body).toMatchObject({ runs: 1, ballots: 3 });
    expect((await get("?format=revise")).body).toMatchObject({ runs: 0, ballots: 0, models: [] });
    expect((await get("?since=2000-01-01")).body).toMatchObject({ ballots: 9, filters: { since: "2000-01-01T00:00:00.000Z" } });
    expect((await get("?since=2999-01-01T00:00:00Z")).body).toMatchObject({ ballots: 0, models: [] });
    // A day is shown as a day, a time to the minute.
    expect(leaderboardSummary((k, v) => translate("en", k, v), { runs: 0, ballots: 0, filters: { format: null, since: "2026-11-01T00:00:00.000Z" } })).toBe(
      "0 votes in 0 runs · all formats · since 2026-11-01",
    );
    expect(leaderboardSummary((k, v) => translate("en", k, v), { runs: 0, ballots: 0, filters: { format: "vote", since: "2026-11-26T05:57:20.000Z" } })).toBe(
      "0 votes in 0 runs · vote · since 2026-11-26 05:57 UTC",
    );
    expect(await get("?format=chess")).toMatchObject({ status: 400, body: { error: { code: "invalid_format" } } });
    expect(await get("?since=yesterday")).toMatchObject({ status: 400, body: { error: { code: "invalid_since" } } });
    for (const bad of ["2026-13-45", "2026-02-30", "0000-01-01", "9999-12-31T23:59:59.999-14:00", "2026-11-01T25:00"]) {
      expect(await get(`?since=${encodeURIComponent(bad)}`), bad).toMatchObject({ status: 400, body: { error: { code: "invalid_since" } } });
    }
    // Empty values are no filter, as a form sends them.
    expect((await get("?format=&since=")).body).toMatchObject({ ballots: 9, filters: { format: null, since: null } });
  });
});

describe("reading ballots back from stored rows", () => {
  const at = new Date("2026-11-26T00:00:00Z");
  let seq = 0;
  const row = (stageType: string, key: string, fields: Partial<RunStage>): RunStage => ({
    id: `run:${stageType}:${key}`,
    messageId: "run",
    stageType,
    stageOrder: 0,
    seq: seq++,
    model: null,
    role: null,
    content: "",
    parsedData: null,
    responseTimeMs: null,
    createdAt: at,
    runAt: at,
    ...fields,
  });

  it("reads a /revise vote by its label, counts what the voters read, and cannot tell twice-given models' lengths apart", () => {
    const rows = [
      row("debate_panel", "0", { parsedData: { participants: [], simulated: false } }),
      row("revision", "call_grok", {
        model: "x-ai/grok-4",
        role: "debater",
        content: "DECISION: REVISE\nREASONING: r\nREVISED RESPONSE:\nfour words of text",
        parsedData: { revisedWordCount: 4 },
      }),
      row("revision", "call_grok_2", { model: "x-ai/grok-4", role: "debater", content: "x", parsedData: { revisedWordCount: 9 } }),
      row("revision", "call_gpt", {
        model: "openai/gpt-5",
        role: "debater",
        content: "DECISION: STAND\nREASONING: a long header here\nREVISED RESPONSE:\nshort",
        parsedData: { revisedWordCount: 1 },
      }),
      row("revised_label_map", "0", { parsedData: { "Response B": "x-ai/grok-4", "Response A": "openai/gpt-5", "Response C": "x-ai/grok-4" } }),
      row("debate_vote", "call_gpt", { model: "openai/gpt-5", role: "voter", parsedData: { votedFor: "Response C" } }),
      row("debate_vote", "call_grok", { model: "x-ai/grok-4", role: "voter", parsedData: { votedFor: "Response A" } }),
      // A vote that could not be read counts nothing.
      row("debate_vote", "call_grok_2", { model: "x-ai/grok-4", role: "voter", parsedData: { votedFor: null, error: "timeout" } }),
    ];
    const ballots = ballotsOfRun(HISTORY_FORMATS, rows);
    expect(ballots.map((b) => [b.format, b.voter, b.chosen, b.chosenPosition])).toEqual([
      ["revise", "openai/gpt-5", "x-ai/grok-4", 2],
      ["revise", "x-ai/grok-4", "openai/gpt-5", 0],
    ]);
    expect(ballots[0].candidates).toEqual([
      { model: "openai/gpt-5", position: 0, words: 1 },
      { model: "x-ai/grok-4", position: 1, words: null },
      { model: "x-ai/grok-4", position: 2, words: null },
    ]);
    // Per model, gpt's choice was between grok's two answers only: no comparison of two models.
    expect(choiceOf(ballots[0])).toBeUndefined();
    expect(choiceOf(ballots[1])).toBeUndefined();
  });

  it("names each model as its runs showed it: the later run's name, both names of a model given twice, no person", () => {
    const panel = (run: string, stageType: string, participants: unknown[]) => ({ ...row(stageType, run, { parsedData: { participants } }), messageId: run });
    const rows = [
      panel("r1", "vote_panel", [
        { model: "x-ai/grok-4", display: "Grok", modelKey: "call_grok" },
        { model: "openai/gpt-5", display: "GPT", modelKey: "call_gpt" },
      ]),
      panel("r2", "debatt_participants", [
        { key: "call_gpt", display: "ChatGPT", model: "openai/gpt-5" },
        { key: "call_qwen", display: "Qwen", model: "qwen/qwen3-max" },
        { key: "call_qwen_2", display: "Qwen 2", model: "qwen/qwen3-max" },
        { key: "person", display: "Ada", model: "person", person: true },
      ]),
      // Not a panel: its data names nobody.
      row("vote", "call_grok", { model: "x-ai/grok-4", parsedData: { participants: [{ model: "x-ai/grok-4", display: "Nope" }] } }),
      // A panel whose data cannot be read names nobody either.
      panel("r3", "rank_panel", [{ model: 7 }]),
    ];
    expect(Object.fromEntries(displayNamesOf(HISTORY_FORMATS, rows))).toEqual({
      "x-ai/grok-4": "Grok",
      "openai/gpt-5": "ChatGPT",
      "qwen/qwen3-max": "Qwen / Qwen 2",
    });
  });

  it("tells apart two models of one name by their ids, and names a model without a name by its id", () => {
    const names = modelNames([
      { model: "openai/gpt-5", display: "ChatGPT" },
      { model: "openai/gpt-5.1", display: "ChatGPT" },
      { model: "qwen/qwen3-max", display: "Qwen" },
      { model: "local/llama", display: null },
    ]);
    expect([...names.values()]).toEqual(["ChatGPT (openai/gpt-5)", "ChatGPT (openai/gpt-5.1)", "Qwen", "local/llama"]);
    const report = leaderboardOf([ballot("d/4", "a/1", ["a/1", "b/2"])], { format: null, since: null }, new Map([["a/1", "Alpha"]]));
    expect(report.models.map((m) => [m.model, m.display])).toEqual([
      ["a/1", "Alpha"],
      ["b/2", null],
    ]);
  });

  it("rates every model in every bootstrap resample, so a model with a single vote is the least certain", () => {
    const ab = [pairs("A", "B", 20), pairs("B", "A", 10)];
    const width = (rs: ReturnType<typeof rateWithIntervals>, m: string) => rs.find((r) => r.model === m)!.high - rs.find((r) => r.model === m)!.low;
    const joined = rateWithIntervals([...ab, pairs("Z", "A", 1)], { resamples: 200, seed: 3 });
    // The model with one vote is the least certain.
    expect(width(joined, "Z")).toBeGreaterThan(width(joined, "A"));
  });
});

describe("the chance test's p-value", () => {
  it("is exact: the two-sided binomial test's value when every chance is the same", () => {
    // binom.test(9, 10, 0.5) in R: 0.02148; binom.test(2, 20, 1/7): 1.
    expect(poissonBinomialPValue(Array(10).fill(0.5), 9)).toBeCloseTo(0.021484375, 9);
    expect(poissonBinomialPValue(Array(20).fill(1 / 7), 2)).toBeCloseTo(1, 9);
    // 0 of 15 at 1/7 each: (6/7)^15 = 0.0990, plus the counts no more likely than it.
    const zero = poissonBinomialPValue(Array(15).fill(1 / 7), 0);
    expect(zero).toBeGreaterThan(0.099);
    expect(zero).toBeLessThan(0.2);
    // Different chances: one sure event and one impossible, seen as expected.
    expect(poissonBinomialPValue([1, 0], 1)).toBe(1);
  });
});
