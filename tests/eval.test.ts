import { SIMULATED_ANSWERS, simulatedModels } from "../service/formats.js";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { textOf } from "../nodes/shared/model-call.js";
import { simulatedAnswer } from "../providers/simulated.js";
import type { ModelRequest } from "../ports/models.js";
import { depsFromEnv } from "../service/deps.js";
import { ARMS, evaluate, fileOutcomeStore, tallyRounds } from "../service/eval.js";
import { compareWithMajority, type RoundFigures } from "../state/evaluation/report.js";
import { translate, type MessageKey } from "../state/messages/index.js";
import { chartOf } from "../cli/eval-chart.js";
import { startFakeOpenAI } from "./support/fake-servers.js";
import { PHASE_OUTPUT_CAPS } from "../providers/output-caps.js";
import { createRunService } from "../service/run-service.js";
import { seededRandom } from "../state/random.js";
import { generateTask, parseTaskAnswer, solveTaskQuestion, TASK_IDS, wilsonInterval, wrongTaskAnswer } from "../state/evaluation/tasks.js";

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
  const factory = (accuracy?: number) => simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 50, accuracy });
  const ask = async (f: ReturnType<typeof simulatedModels>, question: string, who: string) => {
    const model = f.create({ phase: "answer", participant: { key: who, display: who, model: `sim/${who}` }, topic: question });
    return textOf((await model.invoke([new HumanMessage(question)])).content);
  };

  it("answers task questions right with about the chosen probability, each participant independently", async () => {
    const questions = [...generateTask("arithmetic", 600, 7), ...generateTask("dates", 300, 7), ...generateTask("letters", 300, 7)];
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
    const deps = depsFromEnv(
      {
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")),
        SIMULATED_LATENCY_MS: "0",
        SIMULATED_CHUNK_DELAY_MS: "0",
        SIMULATED_CHUNK_TOKENS: "50",
        SIMULATED_ACCURACY: "0.6",
      },
      { log: () => {} },
    );
    const service = createRunService(deps);
    const participants = deps.settings.roster.slice(0, 3);
    const questions = generateTask("arithmetic", 200, 11);
    const done: number[] = [];
    const { results: report } = await evaluate({ service, models: deps.models, settings: deps.settings, participants }, questions, ["single", "majority"], {
      concurrency: 8,
      onQuestion: (p) => done.push(p.done),
    });
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
  });

  it("runs a format as an arm through the run service and reads its result", async () => {
    const deps = depsFromEnv(
      {
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")),
        SIMULATED_LATENCY_MS: "0",
        SIMULATED_CHUNK_DELAY_MS: "0",
        SIMULATED_CHUNK_TOKENS: "50",
        SIMULATED_ACCURACY: "1",
      },
      { log: () => {} },
    );
    const service = createRunService(deps);
    const { results: report } = await evaluate(
      { service, models: deps.models, settings: deps.settings, participants: deps.settings.roster.slice(0, 3) },
      generateTask("letters", 4, 3),
      ["vote"],
      { concurrency: 2 },
    );
    // Every answer is right, so the winner's answer is too; the run's usage is counted.
    expect(report).toEqual([expect.objectContaining({ arm: "vote", task: "letters", n: 4, correct: 4, accuracy: 1 })]);
    expect(report[0].tokens_per_question).toBeGreaterThan(0);
  });
});

describe("the comparison with the plain majority", () => {
  it("says better or worse only when the intervals do not overlap", () => {
    const row = (arm: string, ci_low: number, ci_high: number) => ({
      arm,
      task: "dates",
      n: 100,
      correct: 50,
      accuracy: 0.5,
      ci_low,
      ci_high,
      tokens_per_question: 1,
      cost_per_question_usd: 0,
      wall_ms_per_question: 1,
      failed: 0,
    });
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
    const row = (arm: string, task: string, cost: number) => ({
      arm,
      task,
      n: 10,
      correct: 5,
      accuracy: 0.5,
      ci_low: 0.2,
      ci_high: 0.8,
      tokens_per_question: 100,
      cost_per_question_usd: cost,
      wall_ms_per_question: 1,
      failed: 0,
    });
    const t = (key: MessageKey) => translate("en", key);
    const svg = chartOf([row("majority", "dates", 0.01), row("vote", "dates", 0.05), row("majority", "letters", 0.01)], t);
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg.match(/<g transform/g)).toHaveLength(2);
    expect(svg).toContain("USD per question");
    expect(chartOf([row("majority", "dates", 0)], t)).toContain("tokens per question (no costs known)");
    expect(chartOf([row("majority", "dates", 0)], (key) => translate("sv", key))).toContain("token per fråga");
  });
});

describe("an interrupted evaluation", () => {
  it("goes on where it stopped: what it has is not asked again, and the figures are the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-eval-"));
    const deps = depsFromEnv(
      { DEBATT_DATA_DIR: dir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", SIMULATED_CHUNK_TOKENS: "50", SIMULATED_ACCURACY: "0.5" },
      { log: () => {} },
    );
    const service = createRunService(deps);
    const participants = deps.settings.roster.slice(0, 3);
    const questions = generateTask("dates", 30, 4);
    const path = join(dir, "eval", "seed-4.jsonl");
    // The first run stops after ten questions.
    await evaluate(
      { service, models: deps.models, settings: deps.settings, participants, kept: fileOutcomeStore(path) },
      questions.slice(0, 10),
      ["majority"],
      { concurrency: 2 },
    );
    let asked = 0;
    const counting = { simulated: true, create: (r: Parameters<typeof deps.models.create>[0]) => (asked++, deps.models.create(r)) };
    const { results: resumed } = await evaluate(
      { service, models: counting, settings: deps.settings, participants, kept: fileOutcomeStore(path) },
      questions,
      ["majority"],
      { concurrency: 2 },
    );
    expect(asked).toBe(20 * 3);
    const { results: whole } = await evaluate({ service, models: deps.models, settings: deps.settings, participants }, questions, ["majority"], {
      concurrency: 2,
    });
    expect(resumed).toEqual(whole.map((r) => ({ ...r, wall_ms_per_question: expect.any(Number) })));
  });
});

describe("the rounds of /debatt and /deep", () => {
  it("adds up per round the answers read and right, the flips since the round before, and the round from which all agreed", () => {
    const t = { rounds: new Map<number, RoundFigures>(), converged: 0, convergedBy: 0 };
    // Right is "7": b goes wrong→right in round 2, c right→wrong then back; all agree on "7" from round 3.
    tallyRounds(
      t,
      [
        { round: 1, answers: ["7", "5", "7"] },
        { round: 2, answers: ["7", "7", "5"] },
        { round: 3, answers: ["7", "7", "7"] },
      ],
      "7",
    );
    // An unreadable answer is no flip; these never agree at the end.
    tallyRounds(
      t,
      [
        { round: 1, answers: ["7", null, "5"] },
        { round: 2, answers: ["5", "7", "5"] },
      ],
      "7",
    );
    expect([...t.rounds.values()]).toEqual([
      { round: 1, answers: 5, right: 3, right_to_wrong: 0, wrong_to_right: 0 },
      { round: 2, answers: 6, right: 3, right_to_wrong: 2, wrong_to_right: 1 },
      { round: 3, answers: 3, right: 3, right_to_wrong: 0, wrong_to_right: 1 },
    ]);
    expect([t.converged, t.convergedBy]).toEqual([1, 3]);
    // Agreeing all along converges in the first round; agreeing on another answer at the end does not count from before it.
    const u = { rounds: new Map<number, RoundFigures>(), converged: 0, convergedBy: 0 };
    tallyRounds(
      u,
      [
        { round: 0, answers: ["4", "4"] },
        { round: 1, answers: ["4", "4"] },
      ],
      "4",
    );
    tallyRounds(
      u,
      [
        { round: 0, answers: ["5", "5"] },
        { round: 1, answers: ["4", "4"] },
      ],
      "4",
    );
    expect([u.converged, u.convergedBy]).toEqual([2, 0 + 1]);
  });

  it("follows each round of simulated debates: /debatt's rounds 1–3 and /deep's first answers and rounds, with a consistent count", async () => {
    const deps = depsFromEnv(
      {
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")),
        SIMULATED_LATENCY_MS: "0",
        SIMULATED_CHUNK_DELAY_MS: "0",
        SIMULATED_CHUNK_TOKENS: "50",
        SIMULATED_ACCURACY: "0.6",
      },
      { log: () => {} },
    );
    const service = createRunService(deps);
    const participants = deps.settings.roster.slice(0, 3);
    const { results } = await evaluate(
      { service, models: deps.models, settings: deps.settings, participants },
      generateTask("arithmetic", 12, 5),
      ["deep", "debatt"],
      { concurrency: 4 },
    );
    const [deep, debatt] = results;
    expect(debatt.rounds!.map((r) => r.round)).toEqual([1, 2, 3]);
    expect(deep.rounds![0].round).toBe(0);
    for (const arm of [deep, debatt]) {
      expect(arm.failed).toBe(0);
      // The result states an answer the harness reads; at p = 0.6 with three participants most are right.
      expect(arm.accuracy).toBeGreaterThan(0.4);
      expect(arm.rounds![0].answers).toBe(12 * 3);
      // Every participant answered in every round here, so each round's right answers are the last round's plus the flips.
      for (let i = 1; i < arm.rounds!.length; i++) {
        const [before, now] = [arm.rounds![i - 1], arm.rounds![i]];
        if (now.answers === before.answers) expect(now.right).toBe(before.right + now.wrong_to_right - now.right_to_wrong);
      }
      expect(arm.converged).toBeGreaterThan(0);
    }
    // Simulated debaters take the answer most of what they read gives, so a debate agrees by its second round.
    expect(debatt.rounds_to_convergence).toBeLessThanOrEqual(2);
  });
});

describe("the simulated provider in a deliberation, with SIMULATED_ACCURACY", () => {
  const [q] = generateTask("arithmetic", 1, 9);
  const answer = (phase: string, prompt: string, round?: number) =>
    simulatedAnswer(
      { phase, participant: { key: "a", display: "A", model: "sim/a" }, topic: q.question, round } as ModelRequest,
      [new HumanMessage(prompt)],
      { accuracy: 0.5 },
      SIMULATED_ANSWERS,
    );
  const read = (text: string) => parseTaskAnswer("arithmetic", text);

  it("moves to the answer most of what it read gives, keeps its own on a tie, and a synthesis states the most given", () => {
    const others = "Grok: ANSWER: 11\nClaude: ANSWER: 11\nGPT: ANSWER: 12";
    expect(read(answer("turn", `${q.question}\n${others}`, 2))).toBe("11");
    expect(read(answer("synthesis", `${q.question}\n${others}`))).toBe("11");
    const revision = answer("revision", `YOUR ORIGINAL RESPONSE:\nANSWER: 12\n\nOTHER RESPONSES:\n- ANSWER: 11\n- ANSWER: 11\n`);
    expect(revision).toMatch(/^DECISION: REVISE/);
    expect(read(revision)).toBe("11");
    expect(answer("revision", `YOUR ORIGINAL RESPONSE:\nANSWER: 12\n\nOTHER RESPONSES:\n- ANSWER: 11\n`)).toMatch(/^DECISION: STAND/);
    // A debater's argument is JSON whose position gives the answer; the question's own "ANSWER: <your answer>" is none.
    const argument = answer(
      "debater",
      `${q.question}\n## Your Original Response\nANSWER: 12\n## Other Debaters' Responses\n{"revised_position": "ANSWER: 11", "confidence": 0.9}\nANSWER: 11`,
    );
    expect(read(JSON.parse(/\{[\s\S]*\}/.exec(argument)![0]).revised_position)).toBe("11");
  });
});

describe("an evaluation's budget, its failures and its seed", () => {
  it("gives the same figures when run again with the same questions: the formats' shuffles are seeded by the question", async () => {
    const once = async () => {
      const deps = depsFromEnv(
        { DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")), SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", SIMULATED_ACCURACY: "0.6" },
        { log: () => {} },
      );
      const { results } = await evaluate(
        { service: createRunService(deps), models: deps.models, settings: deps.settings, participants: deps.settings.roster.slice(0, 3) },
        generateTask("letters", 8, 6),
        ["vote", "debatt"],
        { concurrency: 4 },
      );
      return results.map(({ wall_ms_per_question: _, ...r }) => r);
    };
    expect(await once()).toEqual(await once());
  });

  it("starts no question once the budget would be passed (the first alone, four at once after it), so every arm answers the same questions", async () => {
    const roster = ["x-ai/grok-4", "anthropic/claude-sonnet-4.5", "openai/gpt-5"];
    // A dollar a token: a simulated answer of about 40 tokens costs about $40.
    const prices = JSON.stringify(Object.fromEntries(roster.map((m) => [m, { input: 1e6, output: 1e6 }])));
    const deps = depsFromEnv(
      {
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")),
        SIMULATED_LATENCY_MS: "0",
        SIMULATED_CHUNK_DELAY_MS: "0",
        SIMULATED_ACCURACY: "0.6",
        MODEL_PRICES: prices,
      },
      { log: () => {} },
    );
    const service = createRunService(deps);
    const participants = deps.settings.roster.slice(0, 3);
    const run = await evaluate({ service, models: deps.models, settings: deps.settings, participants }, generateTask("dates", 30, 2), ["single", "majority"], {
      concurrency: 4,
      budgetUsd: 1000,
    });
    expect(run.stopped).toBe("budget");
    expect(run.answered).toBeGreaterThan(1);
    expect(run.answered).toBeLessThan(30);
    expect(run.spent_usd).toBeLessThanOrEqual(1000);
    expect(run.spent_usd).toBeGreaterThan(1000 - 2 * (run.spent_usd / run.answered));
    for (const r of run.results) expect(r.n).toBe(run.answered);
  });

  it("counts a run that failed as failed, says why, and does not keep it, so that it is asked again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-eval-"));
    const deps = depsFromEnv({ DEBATT_DATA_DIR: dir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", SIMULATED_ACCURACY: "1" }, { log: () => {} });
    const service = createRunService(deps);
    const path = join(dir, "kept.jsonl");
    // /revise takes at most six: with the whole roster of seven, every run is refused.
    const { results } = await evaluate(
      { service, models: deps.models, settings: deps.settings, participants: deps.settings.roster, kept: fileOutcomeStore(path) },
      generateTask("letters", 3, 1),
      ["revise"],
      { concurrency: 1 },
    );
    expect(results[0]).toEqual(expect.objectContaining({ n: 3, correct: 0, failed: 3 }));
    expect(results[0].errors![0]).toMatch(/invalid_participants: \/revise needs 3–6 models/);
    expect(existsSync(path) ? readFileSync(path, "utf8") : "").toBe("");
  });
});

describe("npm run eval", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["--import", "tsx", "cli/eval.ts", ...args], {
      env: {
        PATH: process.env.PATH,
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")),
        SIMULATED_LATENCY_MS: "0",
        SIMULATED_CHUNK_DELAY_MS: "0",
        LANG: "en_US.UTF-8",
        ...env,
      },
      encoding: "utf8",
    });

  it("names what is wrong with the command line, in the reader's language, and exits with 2", () => {
    const unknown = run(["--arms", "vote,chess"]);
    expect([unknown.status, unknown.stderr.trim().split("\n").at(-1)]).toEqual([2, `There is no arm chess (the arms: ${ARMS.join(", ")}).`]);
    expect(run(["--n", "0"]).stderr).toContain('--n takes a whole number of at least 1, got "0".');
    expect(run(["--max-cost-usd", "free"]).stderr).toContain('--max-cost-usd takes an amount in USD above 0, got "free".');
    expect(run(["--max-tokens", "9000"]).stderr).toContain('--max-tokens takes a whole number from 16 to 8000, got "9000".');
    const seven = run(["--arms", "revise,vote,deep", "--participants", "call_grok,call_claude,call_gpt,call_gemini,call_deepseek,call_perplexity,call_qwen"]);
    expect([seven.status, seven.stderr]).toEqual([
      2,
      expect.stringContaining(
        "This evaluation has 7 participants, and /revise takes 3–6, /deep takes 2–6: choose others with --participants, or leave out revise, deep.",
      ),
    ]);
    const out = join(mkdtempSync(join(tmpdir(), "debatt-eval-")), "file");
    writeFileSync(out, "");
    const unwritable = run(["--n", "1", "--out", join(out, "report.json")]);
    expect([unwritable.status, unwritable.stderr]).toEqual([2, expect.stringContaining(`Cannot write ${join(out, "report.json")}`)]);
    expect(run(["--tasks", "chess"], { LANG: "sv_SE.UTF-8" }).stderr).toContain("Det finns ingen uppgift chess");
    expect(run(["--user", "nobody"]).stderr).toContain("There is no user nobody");
    expect(run(["--bogus"]).status).toBe(2);
  });

  it("says on Ctrl-C where the answers are kept, and run again goes on from them", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-eval-"));
    const args = ["--import", "tsx", "cli/eval.ts", "--n", "6", "--tasks", "dates", "--arms", "majority,vote", "--concurrency", "1"];
    const env = {
      PATH: process.env.PATH,
      DEBATT_DATA_DIR: dataDir,
      SIMULATED_ACCURACY: "0.8",
      SIMULATED_LATENCY_MS: "150",
      SIMULATED_CHUNK_DELAY_MS: "0",
      LANG: "en_US.UTF-8",
    };
    const child = spawn(process.execPath, args, { env });
    let err = "";
    let stopped = false;
    child.stderr.on("data", (d) => {
      err += d;
      // Stopped once two questions are in (once: a second Ctrl-C would be a second request).
      if (!stopped && /2\/6 questions/.test(err)) stopped = child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(130);
    expect(err).toContain(`Stopped. The answers so far are kept in ${join(dataDir, "eval", "seed-1.jsonl")}: run the same command again to go on.`);
    const again = spawnSync(process.execPath, args, { env: { ...env, SIMULATED_LATENCY_MS: "0" }, encoding: "utf8" });
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/[2-9] answers kept from an earlier run were not asked again\./);
  });

  it("takes any number of participants for the arms that are not formats", () => {
    const two = run(["--n", "2", "--tasks", "letters", "--arms", "single,majority", "--participants", "call_grok,call_claude"], { SIMULATED_ACCURACY: "1" });
    expect(two.status, two.stderr).toBe(0);
    expect(two.stdout).toContain("| majority | letters | 2 | 2 |");
  });

  it("prints the table, the verdict and the rounds, and writes the JSON report other tools read, a Markdown table and a chart", () => {
    const out = join(mkdtempSync(join(tmpdir(), "debatt-eval-out-")), "report.json");
    const result = run(["--n", "4", "--tasks", "dates", "--arms", "single,majority,deep", "--max-tokens", "300", "--out", out], { SIMULATED_ACCURACY: "0.7" });
    expect(result.status, result.stderr).toBe(0);
    // By default the first participants every chosen format takes, an odd number: /deep takes six, so five.
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.participants).toHaveLength(5);
    expect(Object.keys(report.arms[0])).toEqual(
      expect.arrayContaining([
        "arm",
        "task",
        "n",
        "correct",
        "accuracy",
        "ci_low",
        "ci_high",
        "tokens_per_question",
        "cost_per_question_usd",
        "wall_ms_per_question",
      ]),
    );
    expect(report).toMatchObject({ tasks: ["dates"], n: 4, simulated: true, simulated_accuracy: 0.7, max_tokens: 300, answered: 4 });
    expect(result.stdout).toContain("Each answer had at most 300 tokens.");
    expect(report.arms.find((a: { arm: string }) => a.arm === "deep").rounds[0].round).toBe(0);
    expect(result.stdout).toContain("| majority | dates | 4 |");
    expect(result.stdout).toMatch(/Beat the plain majority \(intervals apart\): .*\nWorse than it: .*\nNot distinguishable from it at this n: /);
    expect(result.stdout).toContain("| deep | dates | 0 | 20 |");
    expect(result.stderr).toContain("[████████████████████] 4/4 questions");
    expect(readFileSync(out.replace(/\.json$/, ".md"), "utf8")).toBe(result.stdout);
    expect(readFileSync(out.replace(/\.json$/, ".svg"), "utf8")).toMatch(/^<svg /);
  });
});

describe("an evaluation on an OpenAI-compatible endpoint (loopback)", () => {
  it("asks the models over HTTP, reads their answers, and takes the cost the provider reports", async () => {
    const participants = JSON.stringify([
      { key: "call_a", display: "Alpha", model: "test/right-1" },
      { key: "call_b", display: "Beta", model: "test/right-2" },
      { key: "call_c", display: "Gamma", model: "test/wrong" },
    ]);
    // Two models answer right, one wrong; every call reports a cost of $0.001, as OpenRouter does.
    const openai = await startFakeOpenAI((body) => {
      const asked = body.messages.map((m: { content: string }) => m.content).join("\n");
      const task = solveTaskQuestion(asked);
      const value = task ? (body.model === "test/wrong" ? wrongTaskAnswer(task.task, task.answer, () => 0.3) : task.answer) : "7";
      // A ballot backs a right answer among the labelled ones ("--- Response B ---").
      const right = [...asked.matchAll(/--- (Response [A-Z]) ---\n[\s\S]*?ANSWER: (\S+)/g)].find((m) => m[2] === task?.answer)?.[1] ?? "Response A";
      return { text: `Step by step.\nANSWER: ${value}\nVOTE: ${right}`, usage: { prompt_tokens: 100, completion_tokens: 10, cost: 0.001 } };
    });
    try {
      const deps = depsFromEnv(
        {
          OPENAI_API_KEY: "sk-test",
          OPENAI_BASE_URL: openai.baseURL,
          DEBATE_PARTICIPANTS: participants,
          DEBATE_MAX_RETRIES: "0",
          DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-eval-")),
        },
        { log: () => {} },
      );
      expect(deps.models.simulated).toBe(false);
      const service = createRunService(deps);
      const run = await evaluate(
        { service, models: deps.models, settings: deps.settings, participants: deps.settings.roster, maxTokens: 120 },
        generateTask("arithmetic", 5, 3),
        ["single", "majority", "vote"],
        { concurrency: 2 },
      );
      const row = (arm: string) => run.results.find((r) => r.arm === arm)!;
      expect(row("single:call_a")).toMatchObject({ n: 5, correct: 5, cost_per_question_usd: 0.001, tokens_per_question: 110 });
      expect(row("single:call_c")).toMatchObject({ n: 5, correct: 0 });
      expect(row("majority")).toMatchObject({ correct: 5, cost_per_question_usd: 0.003 });
      expect(row("vote").correct).toBe(5);
      expect(row("vote").cost_per_question_usd).toBeGreaterThan(0.003);
      expect(run.spent_usd).toBeCloseTo(
        run.results.reduce((sum, r) => sum + r.cost_per_question_usd * r.n, 0),
        9,
      );
      // Every model was asked over HTTP, and asked to report its usage.
      const models = new Set(openai.seen.map((r) => r.body.model));
      for (const model of ["test/right-1", "test/right-2", "test/wrong"]) expect(models.has(model)).toBe(true);
      expect(openai.seen.every((r) => r.body.stream_options?.include_usage === true || r.body.stream !== true)).toBe(true);
      // Every answer, alone or in /vote, had the evaluation's budget (ballots and titles keep their own).
      const budgets = openai.seen.map((r) => r.body.max_tokens);
      expect(budgets.filter((b) => b === 120).length).toBeGreaterThanOrEqual(5 * 3 * 2 + 5 * 3);
      expect(budgets.filter((b) => b !== 120 && b !== PHASE_OUTPUT_CAPS.vote && b !== PHASE_OUTPUT_CAPS.title)).toEqual([]);
    } finally {
      await openai.close();
    }
  });
});
