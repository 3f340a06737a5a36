import type { BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../ports/models.js";
import { parseArgument } from "../state/replies/argument.js";
import { parseAssessment } from "../state/replies/assessment.js";
import { AGREEMENT_TO_STOP, NEW_POINTS_TO_STOP, stoppingDecision } from "../nodes/deep/lib/stopping-rule.js";
import { parseCommand } from "../state/commands.js";
import { strictEventSchema } from "../state/events.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { answerOf, stanceOf, withOverrides, type Step } from "./support/fake-model.js";
import { named, runEvents, testDeps, graphOf, stepNames } from "./support/harness.js";
import { postDeliberate, readSse, startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const promptOf = (messages: BaseMessage[]) => messages.map((m) => String(m.content)).join("\n");
const rounds = (events: { event: string; data: Record<string, unknown> }[]) => named(events, "deep-round-complete");

/** A moderator that answers these numbers (and `should_stop`) in every round. */
const moderator = (agreement: number, newPoints: number, shouldStop = false) =>
  JSON.stringify({
    should_stop: shouldStop,
    agreement_score: agreement,
    new_points_ratio: newPoints,
    consensus_answer: "Mostly yes.",
    remaining_disagreements: [],
    next_round_focus: null,
  });

/** Debaters that always change something, so only the moderator's numbers or max_rounds stop the debate. */
const restless = (req: ModelRequest) =>
  req.phase === "debater" ? JSON.stringify({ ...stanceOf(req.participant!.display, req.round!), revision: "minor_update" }) : undefined;

describe("/deep: the stopping rule (seed 004), as a property", () => {
  const facts = fc.record({
    minRounds: fc.integer({ min: 1, max: 4 }),
    extra: fc.integer({ min: 0, max: 4 }),
    round: fc.integer({ min: 1, max: 10 }),
    agreementScore: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    newPointsRatio: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    revisions: fc.array(fc.constantFrom("no_change", "minor_update", "major_revision"), { maxLength: 7 }),
  });

  it("stops exactly when seed 004 says: convergence or all no_change (from min_rounds on), or max_rounds", () => {
    fc.assert(
      fc.property(facts, ({ minRounds, extra, round, agreementScore, newPointsRatio, revisions }) => {
        const maxRounds = minRounds + extra;
        const { stop, reason } = stoppingDecision({ round, minRounds, maxRounds, agreementScore, newPointsRatio, revisions });
        const converged = agreementScore !== null && newPointsRatio !== null && agreementScore >= AGREEMENT_TO_STOP && newPointsRatio <= NEW_POINTS_TO_STOP;
        const unmoved = revisions.length > 0 && revisions.every((r) => r === "no_change");
        const expected = round >= maxRounds || (round >= minRounds && (converged || unmoved));
        expect(stop).toBe(expected);
        expect(reason === "continue").toBe(!stop);
        if (reason === "converged") expect(converged).toBe(true);
        if (reason === "all_no_change") expect(unmoved).toBe(true);
        if (reason === "max_rounds") expect(round).toBeGreaterThanOrEqual(maxRounds);
      }),
      { numRuns: 2000 },
    );
  });

  it("never stops before min_rounds unless max_rounds is reached, and always stops at max_rounds", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const maxRounds = f.minRounds + f.extra;
        const decision = stoppingDecision({ ...f, maxRounds });
        if (f.round < f.minRounds && f.round < maxRounds) expect(decision.stop).toBe(false);
        if (f.round >= maxRounds) expect(decision.stop).toBe(true);
      }),
    );
  });

  it("is monotone in the moderator's numbers: more agreement or fewer new points never turns a stop into a continue", () => {
    fc.assert(
      fc.property(facts, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (f, moreAgreement, fewerPoints) => {
        const maxRounds = f.minRounds + f.extra;
        const base = stoppingDecision({ ...f, maxRounds });
        if (!base.stop || f.agreementScore === null || f.newPointsRatio === null) return;
        const better = stoppingDecision({
          ...f,
          maxRounds,
          agreementScore: Math.max(f.agreementScore, moreAgreement),
          newPointsRatio: Math.min(f.newPointsRatio, fewerPoints),
        });
        expect(better.stop).toBe(true);
      }),
    );
  });
});

describe("/deep: parsing the debaters and the moderator", () => {
  it("reads a debater's JSON, repairing a percent confidence and a no_change without a position", () => {
    const r = parseArgument('```json\n{"stance": "Maintain", "key_points": ["k"], "revision": "no_change", "confidence": 85}\n```', "my position");
    expect(r).toEqual({
      ok: true,
      argument: { stance: "maintain", key_points: ["k"], counterpoints: [], revision: "no_change", revised_position: "my position", confidence: 0.85 },
    });
    expect(parseArgument('{"stance": "shrug", "revision": "no_change", "confidence": 0.5}', "p")).toEqual({
      ok: false,
      reason: expect.stringMatching(/^stance: /),
    });
    expect(parseArgument("I agree with everyone.", "p")).toEqual({ ok: false, reason: "no JSON object in the answer" });
  });

  it("reads the moderator's JSON, clamping the scores", () => {
    expect(parseAssessment('{"agreement_score": 1.2, "new_points_ratio": -0.1}')).toEqual({
      ok: true,
      assessment: { should_stop: false, agreement_score: 1, new_points_ratio: 0, consensus_answer: null, remaining_disagreements: [], next_round_focus: null },
    });
    expect(parseAssessment('{"agreement_score": "high"}').ok).toBe(false);
  });
});

describe("/deep: the debate loop", () => {
  it("is its own command", () => {
    expect(parseCommand("/deep Ska städer förbjuda bilar?")).toEqual({
      kind: "deliberation",
      mode: "deep",
      question: "Ska städer förbjuda bilar?",
      options: {},
    });
  });

  it("answers, anonymises as Debater A/B/C, argues in rounds, moderates, outputs seed 004's object and synthesises", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/deep Should cities ban cars?", { participants: THREE, configurable: { seed: 3 } });
    expect(stepNames(events)).toEqual([
      "deep-start",
      "stage1-start",
      "stage1-complete",
      "deep-round-start",
      "deep-round-complete",
      "deep-round-start",
      "deep-round-complete",
      "deep-output",
      "deep-synthesis-complete",
      "title-complete",
      "complete",
      "done",
    ]);
    for (const e of events.slice(0, -1)) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    expect(named(events, "deep-start")[0]).toMatchObject({ mode: "deep", minRounds: 2, maxRounds: 3 });
    // Round 1: minor updates; round 2: every debater unmoved, so the debate stops after the rebuttal.
    expect(rounds(events).map((r) => [r.round, r.stop, r.reason])).toEqual([
      [1, false, "continue"],
      [2, true, "all_no_change"],
    ]);

    const debaters = named(events, "deep-round-start")[0].debaters as Record<string, { display: string }>;
    expect(Object.keys(debaters)).toEqual(["A", "B", "C"]);
    const labelOf = (display: string) => Object.entries(debaters).find(([, w]) => w.display === display)![0];
    const r1 = promptOf(models.calls.filter((c) => c.phase === "debater" && c.participant === "call_grok" && c.round === 1)[0].messages);
    expect(r1).toContain(`## Your Original Response\n${answerOf("Grok", 1)}`);
    const others = r1.split("## Other Debaters' Responses")[1];
    expect(others).toContain(`### Debater ${labelOf("Claude")}\n${answerOf("Claude", 1)}\n---`);
    expect(others).not.toContain(answerOf("Grok", 1));
    expect(r1).not.toContain("## Previous Round Arguments");
    const r2 = promptOf(models.calls.filter((c) => c.phase === "debater" && c.participant === "call_grok" && c.round === 2)[0].messages);
    expect(r2).toContain(`## Previous Round Arguments\n### Debater`);
    expect(r2).toContain("Position: Claude position after round 1");

    const mod = promptOf(models.callsOf("moderator")[0].messages);
    expect(mod).toContain("## Current Round: 1 of 3");
    expect(mod).toContain(`### Debater ${labelOf("ChatGPT")}\n- Stance: maintain\n- Confidence: 0.8\n- Revision: minor_update\n- ChatGPT point 1\n---`);

    const output = named(events, "deep-output")[0].data;
    expect(output).toMatchObject({
      mode: "deep",
      rounds_completed: 2,
      convergence_status: { agreement_score: 0.5, new_points_ratio: 0.5, consensus_answer: null, remaining_disagreements: ["scope"] },
    });
    expect(output.final_stances).toContainEqual({
      debater: labelOf("Claude"),
      stance: "maintain",
      confidence: 0.8,
      revised_position: "Claude position after round 2",
    });
    expect(output.debate_log).toHaveLength(2);
    expect(output.debate_log[1]).toMatch(/^Round 2: .*agreement 0.5, new points 0.5 → all_no_change$/);
    // The synthesis is written from that object.
    expect(promptOf(models.callsOf("deep_synthesis")[0].messages)).toContain(JSON.stringify(output, null, 2));
    expect(named(events, "deep-synthesis-complete")[0].data).toEqual({ synthesis: "## The deep answer\n\nThe debaters converged.", fallback: false });
  });

  it("stops on the moderator's numbers, not on its should_stop", async () => {
    // Round 1: should_stop true with full agreement: ignored (min_rounds 2). Round 2: should_stop false but 0.85/0.1: converged.
    const { deps } = testDeps({
      script: withOverrides(
        (req) => restless(req) ?? (req.phase === "moderator" ? (req.round === 1 ? moderator(1, 0, true) : moderator(0.85, 0.1, false)) : undefined),
      ),
    });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    expect(rounds(events).map((r) => [r.round, r.stop, r.reason])).toEqual([
      [1, false, "continue"],
      [2, true, "converged"],
    ]);
    expect(named(events, "deep-output")[0].data.convergence_status).toMatchObject({
      agreement_score: 0.85,
      new_points_ratio: 0.1,
      consensus_answer: "Mostly yes.",
    });
  });

  it("goes on to max_rounds (modeConfig.maxRounds) when nothing converges", async () => {
    const { deps, models } = testDeps({
      script: withOverrides((req) => restless(req) ?? (req.phase === "moderator" ? moderator(0.79, 0.1, true) : undefined)),
    });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE, modeConfig: { maxRounds: 4 } });
    expect(rounds(events).map((r) => r.reason)).toEqual(["continue", "continue", "continue", "max_rounds"]);
    expect(models.callsOf("debater")).toHaveLength(12);
    expect(promptOf(models.callsOf("moderator")[3].messages)).toContain("## Current Round: 4 of 4");
  });

  it("refuses max rounds outside 2–6", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/deep Q?", { participants: THREE, modeConfig: { maxRounds: 1 } });
    expect(named(events, "error")[0]).toEqual(
      expect.objectContaining({ code: "invalid_mode_config", message: "maxRounds must be a whole number from 2 to 6, got 1" }),
    );
  });

  it("keeps going when the moderator fails (no convergence is assumed), and notes why", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "moderator" ? { error: new Error("moderator 500") } : undefined)) });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    const r = rounds(events);
    expect(r[0]).toMatchObject({ assessment: null, moderatorError: "moderator 500", stop: false });
    // The debaters' revisions still decide: all no_change in round 2.
    expect(r[1]).toMatchObject({ stop: true, reason: "all_no_change" });
    expect(named(events, "deep-output")[0].data.convergence_status).toEqual({
      agreement_score: null,
      new_points_ratio: null,
      consensus_answer: null,
      remaining_disagreements: [],
    });
  });

  it("drops a debater's failed or unreadable turn for that round only", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) => {
        if (req.phase !== "debater") return undefined;
        if (req.participant!.key === "call_claude" && req.round === 1) return "I think we all agree.";
        if (req.participant!.key === "call_gpt" && req.round === 2) return { error: new Error("gpt 503") } satisfies Step;
        return undefined;
      }),
    });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    const [r1, r2] = rounds(events);
    expect(r1.arguments.find((a: { modelKey: string }) => a.modelKey === "call_claude")).toMatchObject({
      status: "error",
      error: "no JSON object in the answer",
    });
    expect(r2.arguments.find((a: { modelKey: string }) => a.modelKey === "call_gpt")).toMatchObject({ status: "error", error: "gpt 503" });
    // Those who argued in round 2 were all unmoved.
    expect(r2).toMatchObject({ stop: true, reason: "all_no_change" });
    // ChatGPT's final stance is its last valid one (round 1).
    const labels = named(events, "deep-round-start")[0].debaters as Record<string, { modelKey: string }>;
    const gpt = Object.entries(labels).find(([, w]) => w.modelKey === "call_gpt")![0];
    expect(named(events, "deep-output")[0].data.final_stances).toContainEqual(
      expect.objectContaining({ debater: gpt, revised_position: "ChatGPT position after round 1" }),
    );
  });

  it("stops with an error when no debater argues in a round", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "debater" ? "no json" : undefined)) });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    expect(stepNames(events).slice(-3)).toEqual(["deep-round-complete", "error", "done"]);
    expect(named(events, "error")[0].code).toBe("all_debaters_failed");
  });

  it("needs two answers to debate", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) => (req.phase === "answer" && req.participant!.key !== "call_grok" ? { error: new Error("down") } : undefined)),
    });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    expect(named(events, "error")[0].code).toBe("too_few_answers");
  });

  it("answers with the consensus when the synthesis model fails", async () => {
    const { deps, logs } = testDeps({
      script: withOverrides((req) =>
        req.phase === "deep_synthesis" ? { error: new Error("synth down") } : req.phase === "moderator" ? moderator(0.9, 0.05) : undefined,
      ),
    });
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    expect(named(events, "deep-synthesis-complete")[0].data).toEqual({ synthesis: "Mostly yes.", fallback: true, error: "synth down" });
    expect(logs.some((l) => l.includes("deep synthesis failed"))).toBe(true);
  });

  it("runs from POST /api/v1/deliberate/stream with mode `deep`, and is a subgraph in Studio", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const { events } = await readSse(
        await postDeliberate(server.url, { question: "Q?", mode: "deep", modeConfig: { models: ["call_grok", "call_claude"], maxRounds: 2 } }),
      );
      expect(stepNames(events).slice(-4)).toEqual(["title-complete", "complete", "usage", "done"]);
      const bad = await postDeliberate(server.url, { question: "Q?", mode: "deep", modeConfig: { maxRounds: 7 } });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.message).toMatch(/modeConfig.maxRounds: Too big/);
    } finally {
      await server.close();
    }
    const ids = Object.values((await graphOf(deps).getGraphAsync({ xray: true })).nodes).map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(["deep:deep_planner", "deep:deep_anonymize", "deep:deep_argue", "deep:deep_moderate", "deep:deep_synthesize"]));
  });
});

describe("/deep on the arena page's state", () => {
  it("builds the rounds, the moderator's decisions and the synthesis from the events", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/deep Q?", { participants: THREE });
    const panel = events.reduce(reduce, emptyArena()).panel;
    expect(panel?.kind).toBe("deep");
    if (panel?.kind !== "deep") return;
    expect(panel.rounds.map((r) => [r.round, r.reason])).toEqual([
      [1, "continue"],
      [2, "all_no_change"],
    ]);
    expect(Object.keys(panel.debaters)).toEqual(["A", "B", "C"]);
    expect(panel.output?.rounds_completed).toBe(2);
    expect(panel.synthesis).toBe("## The deep answer\n\nThe debaters converged.");
    expect(panel.complete).toBe(true);
  });
});
