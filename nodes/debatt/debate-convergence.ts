import { winnerWords } from "./lib/synthesis-text.js";
import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import type { ConvergenceAnalysis, DebateResults } from "../../state/debate.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { buildTranscript } from "./lib/context-chain.js";
import { parseConvergence } from "../../state/replies/convergence.js";
import { invokeText, rethrowIfCancelled, withTimeout } from "../shared/model-call.js";
import { computeResults } from "./lib/tally.js";

/**
 * debate_convergence: closes the vote (self-votes filtered, counted, winner by votes, then total
 * words, then name) and announces `debate_results` at once. The counts and the winner are
 * computed, never taken from a model. Then the internal model's analysis (agreements,
 * disagreements, overlap, …) is asked for; if it fails the debate finishes with the computed part.
 */
export function makeDebateConvergence(deps: NodeDeps) {
  return async function debateConvergence(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const names = state.debate_participants.map((p) => p.display);
    const results = computeResults(state.debate_votes, names, state.debate_word_counts);
    emit(config, "debate_round_end", { round: 4, participant_count: state.debate_votes.filter((b) => b.valid).length });
    emit(config, "debate_results", results);

    let analysis: ConvergenceAnalysis | null = null;
    let analysisError: string | undefined;
    try {
      analysis = await analyse(deps, ctx, config, state, results);
    } catch (err) {
      rethrowIfCancelled(err);
      analysisError = (err as Error).message;
      ctx.log(`convergence analysis failed, continuing with the computed results: ${analysisError}`);
    }
    return {
      debate_status: "results",
      debate_results: { ...results, analysis, ...(analysisError ? { analysis_error: analysisError } : {}) },
    };
  };
}

async function analyse(deps: NodeDeps, ctx: RunContext, config: LangGraphRunnableConfig, state: State, results: DebateResults): Promise<ConvergenceAnalysis> {
  const topic = state.debate_topic ?? "";
  const instructions = ctx.prompts.render("debate.convergence.system", {
    topic,
    winner: winnerWords(topic, results.winner),
    vote_counts: JSON.stringify(results.vote_counts),
  });
  const raw = await withTimeout(ctx.run.responseTimeoutMs, config.signal, (signal) => {
    const model = deps.models.create({ phase: "convergence", topic });
    // The transcript first and the instructions last: the synthesis sends the same transcript first, so its call repeats this one's prompt from the start (a provider's cached prefix).
    return invokeText(model, [new HumanMessage(buildTranscript(topic, state.debate_round_responses)), new HumanMessage(instructions)], signal);
  });
  const parsed = parseConvergence(raw);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.analysis;
}
