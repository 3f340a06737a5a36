import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { textOf } from "../nodes/shared/model-call.js";
import { SimulatedModelFactory } from "../providers/simulated.js";
import { depsFromEnv } from "../service/deps.js";
import { compareWithMajority, evaluate, fileOutcomeStore } from "../service/eval.js";
import { chartOf } from "../cli/eval-chart.js";
import { createRunService } from "../service/run-service.js";
import { seededRandom } from "../state/random.js";
import { generateTask, parseTaskAnswer, solveTaskQuestion, TASK_IDS, wilsonInterval, wrongTaskAnswer } from "../state/eval-tasks.js";

describe("the evaluation's tasks", () => {
  it.each(TASK_IDS)("generates %s questions from a seed: the same seed the same questions, another seed others", (task) => {
    const a = generateTask(task, 20, 1);
    expect(a).toHaveLength(20);
    expect(generateTask(task, 20, 1)).toEqual(a);
    expect(generateTask(task, 20, 2)).not.toEqual(a);
    expect(new Set(a.map((q) => q.question)).size).toBeGreaterThan(15);
    // Each question can be solved again from its text alone, to the answer it was made with.
    for (const q of a) expect(solveTaskQuestion(q.question)).toEqual({ task, answer: q.answer });
  });

  it("computes the answers right: precedence in arithmetic, weekdays across years, letters counted", () => {
    expect(solveTaskQuestion('What is the value of 3+4*5-6*2? End with a line "ANSWER: <your answer>".')?.answer).toBe("11");
    expect(solveTaskQuestion("What is the value of 7-2*9+10?")?.answer).toBe("-1");
    // 2026-11-25 is a Wednesday; 2000-02-28 + 2 days crosses the leap day to Wednesday 2000-03-01.
    expect(solveTaskQuestion("What day of the week is it 1 days after 2026-11-25?")?.answer).toBe("Thursday");
    expect(solveTaskQuestion("What day of the week is it 2 days after 2000-02-28?")?.answer).toBe("Wednesday");
    expect(solveTaskQuestion('How many times does the letter "a" occur in "banana"?')?.answer).toBe("3");
    expect(solveTaskQuestion("Should AI be regulated?")).toBeUndefined();
  });

  it("makes arithmetic harder with more terms and larger numbers", () => {
    const easy = generateTask("arithmetic", 1, 3, { terms: 4, maxNumber: 9 })[0].question;
    const hard = generateTask("arithmetic", 1, 3, { terms: 10, maxNumber: 999 })[0].question;
    expect(/of ([^?]+)\?/.exec(hard)![1].length).toBeGreaterThan(/of ([^?]+)\?/.exec(easy)![1].length * 2);
  });

  it("reads a model's final answer: the last ANSWER line, else the last number or weekday", () => {
    expect(parseTaskAnswer("arithmetic", "First 3*4 = 12, then 12+30 = 42.\nANSWER: 42")).toBe("42");
    expect(parseTaskAnswer("arithmetic", "ANSWER: **-1,234**")).toBe("-1234");
    expect(parseTaskAnswer("arithmetic", "It comes to 17, I think")).toBe("17");
    expect(parseTaskAnswer("dates", "Monday plus 3 days… ANSWER: thursday")).toBe("Thursday");
    expect(parseTaskAnswer("letters", "no idea")).toBeUndefined();
  });

  it("gives plausible wrong answers that are never the right one", () => {
    const random = seededRandom(5);
    for (const q of [...generateTask("arithmetic", 30, 1), ...generateTask("dates", 30, 1), ...generateTask("letters", 30, 1)]) {
      const wrong = wrongTaskAnswer(q.task, q.answer, random);
      expect(wrong).not.toBe(q.answer);
      expect(parseTaskAnswer(q.task, `ANSWER: ${wrong}`)).toBe(wrong);
    }
  });
});

describe("the 95 % Wilson interval", () => {
  it("matches hand-computed values", () => {
    const [low, high] = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(0.4902, 4);
    expect(high).toBeCloseTo(0.9433, 4);
    const [zeroLow, zeroHigh] = wilsonInterval(0, 10);
    expect(zeroLow).toBe(0);
    expect(zeroHigh).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});

describe("the simulated provider with SIMULATED_ACCURACY", () => {
  const factory = (accuracy?: number) => new SimulatedModelFactory({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 50, accuracy });
  const ask = async (f: SimulatedModelFactory, question: string, who: string) => {
    const model = f.create({ phase: "answer", participant: { key: who, display: who, model: `sim/${who}` }, topic: question });
    return textOf((await model.invoke([new HumanMessage(question)])).content);
  };

  it("answers task questions right with about the chosen probability, each participant independently", async () => {
    const questions = [...generateTask("arithmetic", 150, 7), ...generateTask("dates", 75, 7), ...generateTask("letters", 75, 7)];
    const f = factory(0.6);
    let right = 0;
    let agree = 0;
    for (const q of questions) {
      const [a, b] = [await ask(f, q.question, "a"), await ask(f, q.question, "b")];
      if (parseTaskAnswer(q.task, a) === q.answer) right++;
      if ((parseTaskAnswer(q.task, a) === q.answer) === (parseTaskAnswer(q.task, b) === q.answer)) agree++;
    }
    const [low, high] = wilsonInterval(right, questions.length);
    expect(low).toBeLessThanOrEqual(0.6);
    expect(high).toBeGreaterThanOrEqual(0.6);
    // Independent at p = 0.6, two participants are both right or both wrong 0.6² + 0.4² = 52 % of the time.
    const [agreeLow, agreeHigh] = wilsonInterval(agree, questions.length);
    expect(agreeLow).toBeLessThanOrEqual(0.52);
    expect(agreeHigh).toBeGreaterThanOrEqual(0.52);
    // The same call gives the same answer (seeded).
    expect(await ask(f, questions[0].question, "a")).toBe(await ask(f, questions[0].question, "a"));
  });

  it("answers as before without it, and leaves other questions alone with it", async () => {
    const [q] = generateTask("arithmetic", 1, 1);
    expect(await ask(factory(), q.question, "a")).not.toMatch(/^ANSWER: /m);
    expect(await ask(factory(1), "Should AI be regulated?", "a")).not.toMatch(/^ANSWER: /m);
    expect(parseTaskAnswer("arithmetic", await ask(factory(1), q.question, "a"))).toBe(q.answer);
    expect(parseTaskAnswer("arithmetic", await ask(factory(0), q.question, "a"))).not.toBe(q.answer);
  });
});

describe("the evaluation harness, checked on simulated models of known accuracy", () => {
  it("measures single answers at p and a plain majority of three at what the binomial says, with their intervals", async () => {
    const deps = depsFromEnv({ DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")), SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", SIMULATED_CHUNK_TOKENS: "50", SIMULATED_ACCURACY: "0.6" }, { log: () => {} });
    const service = createRunService(deps);
    const participants = deps.settings.roster.slice(0, 3);
    const questions = generateTask("arithmetic", 200, 11);
    const done: number[] = [];
    const report = await evaluate({ service, models: deps.models, settings: deps.settings, participants }, questions, ["single", "majority"], 8, (n) => done.push(n));
    expect(done.at(-1)).toBe(200);
    // In the order the arms were asked for, whatever order the questions finished in.
    expect(report.map((r) => r.arm)).toEqual([...participants.map((p) => `single:${p.key}`).sort(), "majority"]);
    const singles = report.filter((r) => r.arm.startsWith("single:"));
    expect(singles.map((r) => r.arm).sort()).toEqual(participants.map((p) => `single:${p.key}`).sort());
    // All single answers together: 600 independent answers right with p = 0.6.
    const correct = singles.reduce((n, r) => n + r.correct, 0);
    const [low, high] = wilsonInterval(correct, 600);
    expect(low).toBeLessThanOrEqual(0.6);
    expect(high).toBeGreaterThanOrEqual(0.6);
    // A plurality of three: right when at least two are (0.648), or when one is and comes first of three different answers (+0.096).
    const majority = report.find((r) => r.arm === "majority")!;
    expect(majority.n).toBe(200);
    expect(majority.ci_low).toBeLessThanOrEqual(0.744);
    expect(majority.ci_high).toBeGreaterThanOrEqual(0.648);
    expect(majority.accuracy).toBeGreaterThan(0.6);
    expect(majority.tokens_per_question).toBeGreaterThan(singles[0].tokens_per_question * 2);
    expect(majority.cost_per_question_usd).toBe(0);
  }, 60_000);

  it("runs a format as an arm through the run service and reads its result", async () => {
    const deps = depsFromEnv({ DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")), SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", SIMULATED_CHUNK_TOKENS: "50", SIMULATED_ACCURACY: "1" }, { log: () => {} });
    const service = createRunService(deps);
    const report = await evaluate({ service, models: deps.models, settings: deps.settings, participants: deps.settings.roster.slice(0, 3) }, generateTask("letters", 4, 3), ["vote"], 2);
    // Every answer is right, so the winner's answer is too; the run's usage is counted.
    expect(report).toEqual([expect.objectContaining({ arm: "vote", task: "letters", n: 4, correct: 4, accuracy: 1 })]);
    expect(report[0].tokens_per_question).toBeGreaterThan(0);
  }, 60_000);
});

describe("the comparison with the plain majority", () => {
  it("says better or worse only when the intervals do not overlap", () => {
    const row = (arm: string, ci_low: number, ci_high: number) => ({ arm, task: "dates", n: 100, correct: 50, accuracy: 0.5, ci_low, ci_high, tokens_per_question: 1, cost_per_question_usd: 0, wall_ms_per_question: 1 });
    const results = [row("majority", 0.5, 0.6), row("vote", 0.65, 0.8), row("single:a", 0.3, 0.45), row("debatt", 0.55, 0.7)];
    expect(compareWithMajority(results)).toEqual([
      { arm: "vote", task: "dates", versus_majority: "better" },
      { arm: "single:a", task: "dates", versus_majority: "worse" },
      { arm: "debatt", task: "dates", versus_majority: "unclear" },
    ]);
  });
});

describe("the report's chart", () => {
  it("draws one panel per task and one point with its interval per arm, against cost when costs are known", () => {
    const row = (arm: string, task: string, cost: number) => ({ arm, task, n: 10, correct: 5, accuracy: 0.5, ci_low: 0.2, ci_high: 0.8, tokens_per_question: 100, cost_per_question_usd: cost, wall_ms_per_question: 1 });
    const svg = chartOf([row("majority", "dates", 0.01), row("vote", "dates", 0.05), row("majority", "letters", 0.01)]);
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg.match(/<g transform/g)).toHaveLength(2);
    expect(svg).toContain("USD per question");
    expect(chartOf([row("majority", "dates", 0)])).toContain("tokens per question (no costs known)");
  });
});

describe("an interrupted evaluation", () => {
  it("goes on where it stopped: what it has is not asked again, and the figures are the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-eval-"));
    const deps = depsFromEnv({ DEBATT_DATA_DIR: dir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", SIMULATED_CHUNK_TOKENS: "50", SIMULATED_ACCURACY: "0.5" }, { log: () => {} });
    const service = createRunService(deps);
    const participants = deps.settings.roster.slice(0, 3);
    const questions = generateTask("dates", 30, 4);
    const path = join(dir, "eval", "seed-4.jsonl");
    // The first run stops after ten questions.
    await evaluate({ service, models: deps.models, settings: deps.settings, participants, kept: fileOutcomeStore(path) }, questions.slice(0, 10), ["majority"], 2);
    let asked = 0;
    const counting = { simulated: true, create: (r: Parameters<typeof deps.models.create>[0]) => (asked++, deps.models.create(r)) };
    const resumed = await evaluate({ service, models: counting, settings: deps.settings, participants, kept: fileOutcomeStore(path) }, questions, ["majority"], 2);
    expect(asked).toBe(20 * 3);
    const whole = await evaluate({ service, models: deps.models, settings: deps.settings, participants }, questions, ["majority"], 2);
    expect(resumed).toEqual(whole.map((r) => ({ ...r, wall_ms_per_question: expect.any(Number) })));
  });
});
