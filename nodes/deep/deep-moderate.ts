import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { type DebaterTurn, type DeepRoundOutcome, type DeepStateType, type DeepUpdate, type ModeratorAssessment } from "../../state/deep.js";
import { FORMATS } from "../../state/formats.js";
import { debatersOf } from "./lib/debaters.js";
import { stoppingDecision } from "./lib/stopping-rule.js";
import { parseAssessment } from "../../state/replies/assessment.js";
import { invokeText, rethrowIfCancelled, withTimeout } from "../shared/model-call.js";

/** This round's arguments as the moderator reads them: stance, confidence, revision, key points. */
function renderArguments(turns: DebaterTurn[]): string {
  return turns
    .map((t) =>
      [
        `### Debater ${t.label}`,
        `- Stance: ${t.argument!.stance}`,
        `- Confidence: ${t.argument!.confidence}`,
        `- Revision: ${t.argument!.revision}`,
        ...t.argument!.key_points.map((k) => `- ${k}`),
        "---",
        "",
      ].join("\n"),
    )
    .join("\n");
}

/**
 * deep_moderate: the round's arguments are in. The moderator (the internal model) assesses them
 * in JSON; whether to stop is then computed by the stopping rule from its numbers and the
 * debaters' revisions, never taken from its `should_stop`. Emits `deep_round_complete` with the
 * arguments, the assessment and the decision, then the next `deep_round_start` if it goes on.
 * A failed moderator counts as no convergence; a round in which no debater argued stops the run.
 */
export function makeDeepModerate(deps: NodeDeps) {
  return async function deepModerate(state: DeepStateType, config: LangGraphRunnableConfig): Promise<DeepUpdate> {
    const ctx = await deps.context(config);
    const round = state.round;
    const maxRounds = state.options.maxRounds;
    const order = Object.keys(state.labels);
    const turns = state.turns.filter((t) => t.round === round).sort((a, b) => order.indexOf(a.label) - order.indexOf(b.label));
    const argued = turns.filter((t) => t.status === "ok");
    if (argued.length === 0) {
      const message = `No debater produced a valid argument in round ${round}.`;
      emit(config, "deep_round_complete", { round, arguments: turns, assessment: null, stop: true, reason: "no_arguments" });
      emit(config, "error", { code: "all_debaters_failed", message });
      return { error: message };
    }
    let assessment: ModeratorAssessment | null = null;
    let moderatorError: string | undefined;
    try {
      const prompt = ctx.prompts.render("deep.moderator", {
        question: state.question,
        round_number: round,
        max_rounds: maxRounds,
        arguments: renderArguments(argued),
      });
      const reply = await withTimeout(state.timeout_ms, config.signal, (signal) =>
        invokeText(deps.models.create({ phase: "moderator", round, topic: state.question }), [new HumanMessage(prompt)], signal),
      );
      const parsed = parseAssessment(reply);
      if (parsed.ok) assessment = parsed.assessment;
      else moderatorError = parsed.reason;
    } catch (err) {
      rethrowIfCancelled(err);
      moderatorError = (err as Error).message;
    }
    const decision = stoppingDecision({
      round,
      minRounds: FORMATS.deep.rounds.min,
      maxRounds,
      agreementScore: assessment?.agreement_score ?? null,
      newPointsRatio: assessment?.new_points_ratio ?? null,
      revisions: argued.map((t) => t.argument!.revision),
    });
    const outcome: DeepRoundOutcome = { round, assessment, ...(moderatorError ? { moderatorError } : {}), ...decision };
    emit(config, "deep_round_complete", { round, arguments: turns, assessment, ...(moderatorError ? { moderatorError } : {}), ...decision });
    if (decision.stop) return { outcomes: [outcome] };
    emit(config, "deep_round_start", { round: round + 1, debaters: debatersOf(state) });
    return { outcomes: [outcome], round: round + 1 };
  };
}
