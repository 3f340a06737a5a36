import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventStreamFeed, StreamReader } from "../providers/stream-reader.js";
import { RECORDED_ANSWER as ANSWER, recorded, startReplayProvider, withAnswer } from "./support/replay-provider.js";
import { depsFromEnv } from "../service/deps.js";
import { streamClientEvents } from "../service/stream.js";
import type { ClientEvent } from "../state/events.js";
import type { Source } from "../state/answer.js";
import type { DebaterArgument, ModeratorAssessment } from "../state/deep.js";
import { countWords } from "../state/text.js";
import { renderArgument } from "../state/replies/argument.js";
import { renderAssessment } from "../state/replies/assessment.js";
import { renderConvergence } from "../state/replies/convergence.js";
import { renderVote } from "../state/replies/debate-vote.js";
import { renderLetterVote } from "../state/replies/letter-vote.js";
import { renderRevision } from "../state/replies/revision.js";
import { renderVerdict, type VerdictBlock } from "../state/replies/verdict.js";
import { DELIBERATION_TITLE, VOTE_BALLOT, VOTE_TIEBREAKER } from "../prompts/vote.js";
import { REVISE_BALLOT, REVISE_RESTATE, REVISE_REVISION, REVISE_REVISION_ANTI_ANCHORING } from "../prompts/revise.js";
import { DEEP_DEBATER, DEEP_MODERATOR, DEEP_SYNTHESIS } from "../prompts/deep.js";
import { COUNCIL_PACKET, COUNCIL_REPORT, COUNCIL_ROUND2_AGREED, COUNCIL_ROUND2_DISAGREED } from "../prompts/council.js";
import { DEBATE_ROUND4_VOTING_PROMPT, DEFAULT_DEBATE_ANALYSIS_PROMPT, DEFAULT_DEBATE_CONVERGENCE_PROMPT } from "../prompts/debatt.js";
import { graphOf } from "./support/harness.js";

/**
 * Every format over the recorded provider shapes of tests/fixtures/streams: each participant, and
 * the internal model (the /vote chairman, the /deep moderator, the titles, the syntheses and the
 * report), behind another provider's shape, each answering what its stage asks for (a letter vote,
 * a revision block, JSON) in that shape, after that shape's reasoning. What is read must be the
 * answer alone.
 */

/** A provider shape: who stands behind it, its reasoning and sources, and its usage (input, output, cached, reasoning tokens). */
interface Shape {
  name: string;
  model: string;
  file: string;
  reasoning?: string;
  sources?: Source[];
  usage: [number, number, number, number];
  key?: string;
}

const SHAPES: Shape[] = [
  { name: "OpenAI", model: "gpt-5", file: "openai.sse", usage: [120, 40, 64, 24] },
  {
    name: "OpenRouter",
    model: "x-ai/grok-4",
    file: "openrouter.sse",
    reasoning: "Väger kostnad mot utsläpp.",
    sources: [{ url: "https://example.org/iea", title: "IEA 2025" }],
    usage: [200, 30, 0, 8],
  },
  { name: "DeepSeek", model: "deepseek-reasoner", file: "deepseek.sse", reasoning: "Jämför riskerna.", usage: [150, 60, 100, 20] },
  { name: "Groq", model: "qwen/qwen3-32b", file: "groq.sse", reasoning: "Kort övervägande.", usage: [80, 35, 0, 0] },
  { name: "Mistral", model: "magistral-medium-latest", file: "mistral.sse", reasoning: "Jag väger för och emot.", usage: [90, 50, 0, 0] },
  { name: "xAI", model: "grok-3-mini", file: "xai.sse", reasoning: "Först frågan.", usage: [12, 299, 11, 290] },
  { name: "Ollama", model: "qwen3:8b", file: "ollama-think.sse", reasoning: "\nJag borde väga riskerna.", usage: [60, 40, 0, 0] },
  { name: "vLLM", model: "deepseek-r1-distill-qwen-7b", file: "vllm-think.sse", reasoning: "Riskerna först.", usage: [60, 40, 0, 0] },
  { name: "LlamaCpp", model: "qwen3-8b.gguf", file: "llamacpp-think.sse", reasoning: "Riskerna först, sen nyttan.", usage: [60, 40, 0, 0] },
  { name: "Anthropic", model: "anthropic/claude-sonnet-4.5", file: "anthropic-openrouter.sse", reasoning: "Frågan gäller balans.", usage: [900, 45, 800, 0] },
  { name: "Qwen", model: "qwen3-max", file: "qwen.sse", reasoning: "Tänker.", usage: [70, 33, 0, 0] },
];
const shape = (name: string) => ({ ...SHAPES.find((s) => s.name === name)! });

/** Two panels (a roster holds at most 8, /revise, /deep and /council at most 6), each with the internal model behind a shape whose answer follows a think block in the content. */
const PANELS = [
  {
    title: "OpenAI, OpenRouter, DeepSeek, Groq, Mistral, xAI; internal model Ollama <think>",
    shapes: SHAPES.slice(0, 6),
    chair: { ...shape("Ollama"), name: "chairman (Ollama <think>)", model: "chair/ollama-think" },
  },
  {
    title: "Ollama <think>, vLLM <think>, llama.cpp </think>, Anthropic via OpenRouter, Qwen; internal model llama.cpp </think>",
    shapes: SHAPES.slice(6),
    chair: { ...shape("LlamaCpp"), name: "chairman (llama.cpp </think>)", model: "chair/llamacpp-think" },
  },
].map((p) => ({ ...p, shapes: p.shapes.map((s, i) => ({ ...s, key: `call_p${i}` })) }));
type Panel = (typeof PANELS)[number];

/** Who a shape is in assertion messages. */
const who = (s: Shape) => `${s.name} (${s.file})`;
/** A shape's usage as a call's usage: once. */
const usageOf = (s: Shape) => ({ calls: 1, input_tokens: s.usage[0], output_tokens: s.usage[1], cached_tokens: s.usage[2], reasoning_tokens: s.usage[3] });
/** What must never reach an answer or a prompt: every shape's reasoning, and the think tags. */
const THOUGHTS = [...new Set(SHAPES.flatMap((s) => (s.reasoning ? [s.reasoning.trim()] : [])))].concat(["<think>", "</think>"]);

// What a well-behaved model answers in each stage.
const TITLE = "Kärnkraftens roll i omställningen";
const REVISED = (i: number) => `Omarbetat svar ${i + 1}: kärnkraft som brygga, förnybart som bas.`;
const DECISIONS = ["REVISE", "STAND", "MERGE"] as const;
const argumentOf = (i: number, round: number): DebaterArgument => ({
  stance: round === 1 ? "maintain" : "partial_concede",
  key_points: [`Punkt ${i + 1} i runda ${round}.`],
  counterpoints: round === 1 ? [] : [{ target: "Debater A", point: "Lagring saknas.", evidence: "Säsongslagring är dyr." }],
  revision: "minor_update",
  revised_position: `Ståndpunkt ${i + 1} efter runda ${round}.`,
  confidence: 0.5 + i / 20,
});
// The moderator sees convergence only in round 2: if its JSON were not read, the debate would run to max_rounds.
const assessmentOf = (round: number): ModeratorAssessment =>
  round === 1
    ? {
        should_stop: false,
        agreement_score: 0.4,
        new_points_ratio: 0.6,
        consensus_answer: null,
        remaining_disagreements: ["Lagring"],
        next_round_focus: "Lagring",
      }
    : {
        should_stop: true,
        agreement_score: 0.9,
        new_points_ratio: 0.1,
        consensus_answer: "Kärnkraft som brygga, förnybart som bas.",
        remaining_disagreements: [],
        next_round_focus: null,
      };
const DEEP_ANSWER = "## Svar\n\nKärnkraft som brygga, förnybart som bas.";
const verdictOf = (i: number) => (i === 1 ? "WARN" : "PASS");
const verdictBlock = (i: number): VerdictBlock => ({
  judge: `Domare ${i + 1}`,
  verdict: verdictOf(i),
  confidence: "HIGH",
  key_insight: `Insikt ${i + 1}.`,
  findings: [{ severity: "minor", description: `Fynd ${i + 1}.` }],
  recommendation: `Råd ${i + 1}.`,
});
const REPORT = "## Rådets rapport\n\nPåståendet håller, med en varning.";
const SUMMARY = "Deltagarna möts i att kärnkraft är en brygga.";
const SYNTHESIS = "## Sammanfattning\n\nKärnkraft som brygga, förnybart som bas.";
/** /vote: voters pair off on Response A and B (a tie the chairman breaks), an odd one out votes C. */
const ballotOf = (i: number, n: number) => (i >= n - (n % 2) ? "Response C" : i % 2 ? "Response B" : "Response A");

/** The opening words of a prompt template (up to its first placeholder or line end), by which its request is known. */
const lead = (template: string) =>
  template
    .replace(/^\{context\}\n\n/, "")
    .split("\n")[0]
    .split("{")[0];
const textOf = (content: unknown): string => (typeof content === "string" ? content : (content as { text?: string }[]).map((p) => p.text ?? "").join(""));

/** What the model of a request answers: by the prompt its last message opens with; undefined (the recorded answer) for a first answer or a debate turn. */
function answerFor(panel: Panel, body: any): string | undefined {
  const i = panel.shapes.findIndex((s) => s.model === body.model);
  const n = panel.shapes.length;
  const messages: string[] = body.messages.map((m: { content: unknown }) => textOf(m.content));
  const last = messages.at(-1)!;
  const all = messages.join("\n");
  const opens = (...templates: string[]) => templates.some((t) => last.startsWith(lead(t)));
  const blocks = [...last.matchAll(/--- (Response [A-Z])(?: \(\d+ votes\))? ---\n([^\n]*)/g)];
  if (opens(DELIBERATION_TITLE)) return TITLE;
  if (opens(VOTE_BALLOT)) return renderLetterVote(ballotOf(i, n), "Tydligast och mest praktiskt.");
  if (opens(VOTE_TIEBREAKER))
    return renderLetterVote(
      blocks
        .map((b) => b[1])
        .sort()
        .at(-1)!,
    );
  if (opens(REVISE_RESTATE)) return `Omformulering ${i + 1}: kärnkraft behövs en tid.`;
  if (opens(REVISE_REVISION, REVISE_REVISION_ANTI_ANCHORING)) {
    const original = /YOUR ORIGINAL RESPONSE:\n([\s\S]*?)\n\n/.exec(all)![1];
    const decision = DECISIONS[i % 3];
    return renderRevision(decision, `Skäl ${i + 1}.`, decision === "STAND" ? original : REVISED(i));
  }
  if (opens(REVISE_BALLOT)) return renderLetterVote(blocks.find((b) => b[2] === REVISED(0))?.[1] ?? "Response Z", "Mest komplett.");
  if (opens(DEEP_DEBATER)) return renderArgument(argumentOf(i, last.includes("## Previous Round Arguments") ? 2 : 1));
  if (opens(DEEP_MODERATOR)) return renderAssessment(assessmentOf(Number(/Current Round: (\d+)/.exec(last)![1])));
  if (opens(DEEP_SYNTHESIS)) return DEEP_ANSWER;
  if (opens(COUNCIL_PACKET)) return renderVerdict(`Analys ${i + 1}.`, verdictBlock(i));
  if (opens(COUNCIL_ROUND2_AGREED, COUNCIL_ROUND2_DISAGREED))
    return renderVerdict(`Analys ${i + 1}, runda 2.`, { ...verdictBlock(i), r1_restatement: `Jag sa ${verdictOf(i)} i runda 1.`, change_justification: "" });
  if (opens(COUNCIL_REPORT)) return REPORT;
  // The vote's instruction follows what is new in the debate, in the same message.
  if (last.includes(lead(DEBATE_ROUND4_VOTING_PROMPT))) {
    const candidates = /Välj en av: (.*)\.\n/.exec(last)![1].split(", ");
    const favourite = panel.shapes[1].name;
    return renderVote({
      voted_for: candidates.includes(favourite) ? favourite : candidates[0],
      short_motivation: "Bäst underbyggt.",
      three_bullets: ["Fakta", "Tydlighet", "Bemötanden"],
    });
  }
  if (opens(DEFAULT_DEBATE_CONVERGENCE_PROMPT))
    return renderConvergence({
      merged_summary: SUMMARY,
      overlap_score: 0.7,
      agreements: ["Kärnkraft som brygga"],
      disagreements: ["Takten"],
      conflicts: [],
      comparative_summary: "Olika betoning.",
    });
  if (opens(DEFAULT_DEBATE_ANALYSIS_PROMPT)) return SYNTHESIS;
  return undefined;
}

/** Events of one name. */
const named = (events: ClientEvent[], name: string) => events.filter((e) => e.event === name).map((e) => e.data as any);

describe("a recorded stream replayed with another answer", () => {
  const ANOTHER = 'VOTE: Response B\n\n```json\n{"a": "b\\"c", "d": [1, {"e": null}]}\n```\n$& $1 <b>räksmörgås</b>';
  const read = async (text: string) => {
    const feed = new EventStreamFeed(new StreamReader());
    feed.feed(text);
    return feed.end();
  };

  it.each(SHAPES.map((s) => [who(s), s] as const))(
    "%s: gives exactly the new answer, with the same events, reasoning, sources, usage and ending",
    async (_, s) => {
      const original = recorded(s.file);
      const replaced = withAnswer(original, ANOTHER);
      expect(replaced.split("\n\n").length, who(s)).toBe(original.split("\n\n").length);
      expect(
        replaced.split("\n").filter((l) => !l.startsWith("data:")),
        who(s),
      ).toEqual(original.split("\n").filter((l) => !l.startsWith("data:")));
      const before = await read(original);
      expect(before.text, who(s)).toBe(ANSWER);
      expect(await read(replaced), who(s)).toEqual({ ...before, text: ANOTHER });
    },
  );
});

describe.each(PANELS)("every format over recorded shapes: $title", (panel) => {
  const roster = JSON.stringify(panel.shapes.map((s) => ({ key: s.key, display: s.name, model: s.model })));
  // Events name a model by its id, /debatt's by its participant's name.
  const byModel = new Map(
    [...panel.shapes, panel.chair].flatMap((s) => [
      [s.model, s],
      [s.name, s],
    ]),
  );
  /** Shapes whose template opens the think block itself: their thinking streams live (deltas) until the end tag says what it was. */
  const bareThink = new Set([...byModel].filter(([, s]) => s.file === "llamacpp-think.sse").map(([id]) => id));
  let provider: Awaited<ReturnType<typeof startReplayProvider>>;
  beforeAll(async () => {
    provider = await startReplayProvider(Object.fromEntries([...panel.shapes, panel.chair].map((s) => [s.model, s.file])), (body) => answerFor(panel, body));
  });
  afterAll(() => provider?.close());

  /** Runs a message over the panel; the events, and the requests the models were sent. */
  const run = async (message: string) => {
    const from = provider.seen.length;
    const env = {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: provider.baseURL,
      DEBATE_PARTICIPANTS: roster,
      ONESEEK_MODEL: panel.chair.model,
      DEBATE_MAX_RETRIES: "0",
    };
    const graph = graphOf(depsFromEnv(env, { log: () => {} }));
    const events: ClientEvent[] = [];
    for await (const e of streamClientEvents(graph, { message, participants: panel.shapes.map((s) => s.key) }, {})) events.push(e);
    return { events, asked: provider.seen.slice(from) };
  };

  /**
   * What every run must come to: `done` and no `error`; no reasoning or think tag in any event
   * (a shape's own reasoning in its `reasoning` note aside; the live deltas of a template's bare
   * end tag aside, and the /debatt synthesis's text, tested on its own) nor in any request sent;
   * every call's usage on its event once, as its shape reported it.
   */
  const checkRun = ({ events, asked }: { events: ClientEvent[]; asked: any[] }) => {
    expect(events.at(-1)?.event, "the run ends with done").toBe("done");
    expect(named(events, "error"), "no error event").toEqual([]);
    const own = new Set([...panel.shapes, panel.chair].map((s) => s.reasoning));
    const leaks: string[] = [];
    for (const e of events) {
      const data = e.data as any;
      if (e.event === "text-delta" || (e.event.endsWith("-delta") && bareThink.has(data.model))) continue;
      const text = JSON.stringify(data, (k, v) => (k === "reasoning" && own.has(v) ? undefined : v));
      for (const t of THOUGHTS) if (text.includes(t)) leaks.push(`${e.event} of ${data.model ?? data.data?.model ?? "the run"}: ${t}`);
    }
    expect(leaks, "reasoning in the events").toEqual([]);
    const sent = asked.flatMap((b) => THOUGHTS.filter((t) => JSON.stringify(b.messages).includes(t)).map((t) => `to ${b.model}: ${t}`));
    expect(sent, "reasoning in what the models were sent").toEqual([]);
    const usages: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (v === null || typeof v !== "object") return;
      const o = v as Record<string, any>;
      if (typeof o.model === "string" && o.usage) {
        const s = byModel.get(o.model)!;
        expect(o.usage, `${who(s)}: its call's usage, once`).toMatchObject(usageOf(s));
        usages.push(s.model);
      }
      Object.values(o).forEach(walk);
    };
    events.forEach((e) => walk(e.data));
    for (const s of panel.shapes) expect(usages, `${who(s)}: a call's usage on the events`).toContain(s.model);
  };

  /** A first answer (or turn) in a shape: the recorded answer alone, with the shape's reasoning and sources beside it. */
  const checkAnswer = (a: any, s: Shape, text: string = a.response) => {
    expect(text, `${who(s)}: the answer alone`).toBe(ANSWER);
    expect(a.reasoning, `${who(s)}: its reasoning beside the answer`).toBe(s.reasoning);
    expect(a.sources, `${who(s)}: its sources`).toEqual(s.sources);
    expect(a.ending, `${who(s)}: a whole answer`).toBeUndefined();
  };
  const stage1 = (events: ClientEvent[], name: string) => {
    const data: any[] = named(events, name)[0].data;
    for (const s of panel.shapes)
      checkAnswer(
        data.find((a) => a.model === s.model),
        s,
      );
    return data;
  };
  const titled = (events: ClientEvent[]) =>
    expect(named(events, "title-complete")[0].data.title, `${who(panel.chair)}: the title after its think block`).toBe(TITLE);

  it("/vote: every shape's letter vote is read, the chairman's tiebreak after its think block too, and a winner is declared", async () => {
    const result = await run("/vote Behövs kärnkraft?");
    checkRun(result);
    const { events } = result;
    stage1(events, "stage1-complete");
    const round = named(events, "vote-round-complete")[0].data;
    const n = panel.shapes.length;
    for (const [i, s] of panel.shapes.entries()) {
      const vote = round.votes.find((v: any) => v.model === s.model);
      expect(vote.votedFor, `${who(s)}: its vote, read after its reasoning`).toBe(ballotOf(i, n));
      expect(vote.voteText, `${who(s)}: the vote's text alone`).toBe(renderLetterVote(ballotOf(i, n), "Tydligast och mest praktiskt."));
    }
    expect(round, "every vote counted").toMatchObject({ validVoteCount: n, invalidVoteCount: 0, isTie: true, tiedLabels: ["Response A", "Response B"] });
    const tiebreak = named(events, "tiebreaker-complete")[0].data;
    expect(tiebreak, `${who(panel.chair)}: the tiebreak read after its think block`).toMatchObject({
      model: panel.chair.model,
      votedFor: "Response B",
      attempts: 1,
      fallback: false,
      voteText: "VOTE: Response B",
      usage: usageOf(panel.chair),
    });
    const winner = named(events, "winner-declared")[0].data;
    expect(winner).toMatchObject({ winnerLabel: "Response B", winnerModel: round.labelToModel["Response B"], winnerResponse: ANSWER, tiebroken: true });
    titled(events);
  });

  it(`/revise${panel === PANELS[1] ? " --anti-anchoring" : ""}: every shape's revision block is read, its restatement too, the vote on the revised answers counted`, async () => {
    const anti = panel === PANELS[1];
    const result = await run(`/revise${anti ? " --anti-anchoring" : ""} Behövs kärnkraft?`);
    checkRun(result);
    const { events, asked } = result;
    stage1(events, "round1-complete");
    const { revisions, summary } = named(events, "revision-complete")[0].data;
    for (const [i, s] of panel.shapes.entries()) {
      const r = revisions.find((x: any) => x.model === s.model);
      const decision = DECISIONS[i % 3];
      const revised = decision === "STAND" ? ANSWER : REVISED(i);
      expect(r, `${who(s)}: its revision, read after its reasoning`).toMatchObject({
        decision,
        reasoning: `Skäl ${i + 1}.`,
        revisedResponse: revised,
        parseSuccess: true,
        originalResponse: ANSWER,
        originalWordCount: countWords(ANSWER),
        revisedWordCount: countWords(revised),
      });
      expect(r.revisionText, `${who(s)}: the revision's text alone`).toBe(renderRevision(decision, `Skäl ${i + 1}.`, revised));
      if (anti) {
        const restatement = `Omformulering ${i + 1}: kärnkraft behövs en tid.`;
        expect(r.restatement, `${who(s)}: its restatement alone`).toBe(restatement);
        // The revision goes on from the restatement as the model's own message: the restatement alone.
        const revisionCall = asked.find((b) => b.model === s.model && b.messages.length === 3);
        expect(revisionCall.messages[1], `${who(s)}: the restatement it was sent back`).toEqual({ role: "assistant", content: restatement });
      }
    }
    expect(summary).toMatchObject({ totalModels: panel.shapes.length, parseFailed: 0 });
    const vote = named(events, "vote-complete")[0].data;
    expect(vote, "every vote on the revised answers counted").toMatchObject({ validVoteCount: panel.shapes.length, invalidVoteCount: 0, isTie: false });
    const winner = named(events, "winner-declared")[0].data;
    expect(winner, `${who(panel.shapes[0])}: its revised answer wins`).toMatchObject({
      winnerModel: panel.shapes[0].model,
      winnerResponse: REVISED(0),
      winnerDecision: "REVISE",
      voteCount: panel.shapes.length,
    });
    titled(events);
  });

  it("/deep: every shape's JSON argument is read in both rounds, the moderator's JSON after its think block stops the debate, the synthesis is the answer alone", async () => {
    const result = await run("/deep Behövs kärnkraft?");
    checkRun(result);
    const { events } = result;
    stage1(events, "stage1-complete");
    const rounds = named(events, "deep-round-complete");
    expect(
      rounds.map((r) => [r.round, r.reason]),
      `${who(panel.chair)}: the moderator's assessment decides`,
    ).toEqual([
      [1, "continue"],
      [2, "converged"],
    ]);
    for (const r of rounds) {
      expect(r.assessment, `${who(panel.chair)}: the moderator's JSON of round ${r.round}`).toEqual(assessmentOf(r.round));
      expect(r.moderatorError).toBeUndefined();
      for (const [i, s] of panel.shapes.entries()) {
        const turn = r.arguments.find((t: any) => t.model === s.model);
        expect(turn, `${who(s)}: its JSON argument of round ${r.round}, read after its reasoning`).toMatchObject({
          status: "ok",
          argument: argumentOf(i, r.round),
        });
      }
    }
    expect(named(events, "deep-output")[0].data.rounds_completed).toBe(2);
    expect(named(events, "deep-synthesis-complete")[0].data, `${who(panel.chair)}: the synthesis alone`).toEqual({
      synthesis: DEEP_ANSWER,
      fallback: false,
      usage: expect.objectContaining(usageOf(panel.chair)),
    });
    titled(events);
  });

  it("/council --debate: every shape's verdict JSON is read in both rounds, round 2 continues from the verdict alone, the report is the answer alone", async () => {
    const result = await run("/council --debate Sverige behöver ny kärnkraft före 2040.");
    checkRun(result);
    const { events, asked } = result;
    const n = panel.shapes.length;
    expect(named(events, "council-round-start").find((r) => r.round === 2)?.branch, "round 1's WARN and PASSes disagree").toBe("disagreed");
    for (const [i, s] of panel.shapes.entries()) {
      const verdicts = named(events, "council-verdict").filter((v) => v.model === s.model);
      const { judge: _, ...block } = verdictBlock(i);
      expect(
        verdicts.map((v) => [v.round, v.status, v.verdict && { ...v.verdict, judge: undefined }]),
        `${who(s)}: its verdicts, read after its reasoning`,
      ).toEqual([
        [1, "ok", { ...block, judge: undefined }],
        [2, "ok", { ...block, judge: undefined }],
      ]);
      expect(verdicts[0].text, `${who(s)}: the round-1 reply alone`).toBe(renderVerdict(`Analys ${i + 1}.`, verdictBlock(i)));
      expect(verdicts[1].restatement, `${who(s)}: its round-2 restatement`).toBe(`Jag sa ${verdictOf(i)} i runda 1.`);
      expect(verdicts[1].unjustifiedChange).toBeUndefined();
      const round2 = asked.find((b) => b.model === s.model && b.messages.length > 2);
      expect(round2.messages.at(-2), `${who(s)}: round 2 goes on from its round-1 reply alone`).toEqual({ role: "assistant", content: verdicts[0].text });
    }
    const consolidation = named(events, "council-consolidation")[0].data;
    expect(consolidation).toMatchObject({ counts: { PASS: n - 1, WARN: 1, FAIL: 0 }, consensus: "PASS", unanimous: false, round2: "complete" });
    expect(named(events, "council-report-complete")[0].data, `${who(panel.chair)}: the report alone`).toEqual({
      report: REPORT,
      fallback: false,
      usage: expect.objectContaining(usageOf(panel.chair)),
    });
  });

  let debatt: ReturnType<typeof run> | undefined;
  const debattRun = () => (debatt ??= run("/debatt Behövs kärnkraft?"));

  it("/debatt: the turns are the answers alone with their reasoning beside them, every shape's JSON ballot is read, the analysis after the internal model's think block too", async () => {
    const result = await debattRun();
    checkRun(result);
    const { events, asked } = result;
    const n = panel.shapes.length;
    const turns = named(events, "debate-participant-end");
    expect(turns.length).toBe(n * 3);
    for (const s of panel.shapes) {
      for (const t of turns.filter((x) => x.model === s.model)) {
        checkAnswer(t, s, t.response_preview);
        expect(t.word_count, `${who(s)}: round ${t.round}'s words, without the reasoning`).toBe(countWords(ANSWER));
        expect(t.usage, `${who(s)}: round ${t.round}'s usage, once`).toMatchObject(usageOf(s));
      }
    }
    const favourite = panel.shapes[1].name;
    const votes = named(events, "debate-vote-result");
    for (const s of panel.shapes) {
      const voted = s.name === favourite ? panel.shapes[0].name : favourite;
      expect(
        votes.find((v) => v.voter === s.name),
        `${who(s)}: its JSON ballot, read after its reasoning`,
      ).toMatchObject({ voted_for: voted, motivation: "Bäst underbyggt.", bullets: ["Fakta", "Tydlighet", "Bemötanden"] });
    }
    const results = named(events, "debate-results")[0];
    expect(results, "every ballot valid").toMatchObject({
      winner: favourite,
      vote_counts: { [favourite]: n - 1, [panel.shapes[0].name]: 1 },
      invalid_votes: 0,
      self_votes_filtered: 0,
    });
    expect(named(events, "debate-synthesis-complete")[0]).toMatchObject({ winner: favourite });
    // The synthesis is asked with the analysis's summary: the convergence JSON was read after the think block.
    const synthesisCall = asked.find(
      (b) => b.model === panel.chair.model && textOf(b.messages.at(-1).content).startsWith(lead(DEFAULT_DEBATE_ANALYSIS_PROMPT)),
    );
    expect(textOf(synthesisCall.messages.at(-1).content), `${who(panel.chair)}: its convergence JSON read`).toContain(`Sammanfattning: ${SUMMARY}`);
  });

  it(`/debatt: the synthesis written by the internal model (${panel.chair.file}) is its answer alone`, async () => {
    const { events } = await debattRun();
    const [block, ...body] = named(events, "text-delta").map((d) => d.delta as string);
    expect(block).toMatch(/^```debate-arena-data\n/);
    // Even llama.cpp's bare </think>: the internal model answered before in the run (the convergence
    // analysis), so its template's thinking is known, held back and never streamed as the synthesis.
    expect(body.join(""), `${who(panel.chair)}: the synthesis after the arena block`).toBe(SYNTHESIS);
    expect(named(events, "debate-synthesis-complete")[0].synthesis_length, `${who(panel.chair)}: the synthesis's length, without the reasoning`).toBe(
      block.length + SYNTHESIS.length,
    );
  });
});
