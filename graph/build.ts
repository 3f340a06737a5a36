import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { makeDebateConvergence } from "../nodes/debatt/debate-convergence.js";
import { makeDebateDomainPlanner } from "../nodes/debatt/debate-domain-planner.js";
import { makeDebateRoundExecutor } from "../nodes/debatt/debate-round-executor.js";
import { makeDebateSynthesizer } from "../nodes/debatt/debate-synthesizer.js";
import { makeDebateVote } from "../nodes/debatt/debate-vote.js";
import { makeDebateVoicePipeline } from "../nodes/debatt/debate-voice-pipeline.js";
import { resolveIntent } from "../nodes/router/resolve-intent.js";
import { makeSupervisor } from "../nodes/chat/supervisor.js";
import { RunConfigSchema } from "../state/config.js";
import type { VoteTask } from "../state/debate.js";
import { GraphState } from "../state/graph-state.js";
import { MAX_PARTICIPANTS } from "../state/participants.js";
import type { GraphDeps } from "../ports/node-deps.js";
import { afterDebate, recursionLimitFor, routeAfterIntent, routeAfterPlanner, routeAfterTurn } from "./edges.js";
import { buildCompareGraph } from "./compare.js";
import { buildCouncilGraph } from "./council.js";
import { buildDeepGraph } from "./deep.js";
import { buildReviseGraph } from "./revise.js";
import { buildVoteGraph } from "./vote.js";
import { VoiceRuns } from "../nodes/debatt/lib/voice-runs.js";

/**
 * Builds and compiles the debatt graph (seed 003 §2):
 *
 *   resolve_intent ─┬─ supervisor → END
 *                   ├─ compare (subgraph: planner → answers ×N in parallel → complete) → END
 *                   ├─ vote (subgraph, seed 001: answers ×N → anonymise → votes ×N → tally
 *                   │        → [tie] tiebreaker → winner → title) → END
 *                   ├─ revise (subgraph, seed 000: answers ×N → revisions ×N → new labels
 *                   │          → votes ×N → tally → winner → title) → END
 *                   ├─ deep (subgraph, seed 004: answers ×N → Debater A/B/C… → arguments ×N
 *                   │        → moderator ⟲ until the stopping rule → synthesis → title) → END
 *                   ├─ council (subgraph, seed 002: judges ×N → review → [--debate] judges ×N
 *                   │           again, same conversations → review) → consolidate → title) → END
 *                   ├─ debate_domain_planner → debate_round_executor ⟲ (one turn per step)
 *                   │     → debate_vote ×N (Send, parallel) → debate_convergence → debate_synthesizer
 *                   │     → (/dvoice) debate_voice_pipeline → END
 *                   └─ END (command without a topic)
 *
 * The recursion limit is set for the largest debate (8 participants).
 */
export function buildGraph(deps: GraphDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const voice = new VoiceRuns();
  const graph = new StateGraph(GraphState, RunConfigSchema)
    .addNode("resolve_intent", resolveIntent)
    .addNode("supervisor", makeSupervisor(deps))
    .addNode("vote", buildVoteGraph(deps))
    .addNode("revise", buildReviseGraph(deps))
    .addNode("deep", buildDeepGraph(deps))
    .addNode("council", buildCouncilGraph(deps))
    .addNode("compare", buildCompareGraph(deps))
    .addNode("debate_domain_planner", makeDebateDomainPlanner(deps))
    .addNode("debate_round_executor", makeDebateRoundExecutor(deps, voice))
    // The vote node's input is the Send's VoteTask, not the graph state.
    .addNode("debate_vote", makeDebateVote(deps) as unknown as (task: VoteTask) => Promise<typeof GraphState.Update>)
    .addNode("debate_convergence", makeDebateConvergence(deps))
    .addNode("debate_synthesizer", makeDebateSynthesizer(deps))
    .addNode("debate_voice_pipeline", makeDebateVoicePipeline(deps, voice))
    .addEdge(START, "resolve_intent")
    .addConditionalEdges("resolve_intent", routeAfterIntent, ["debate_domain_planner", "compare", "vote", "revise", "deep", "council", "supervisor", END])
    .addEdge("supervisor", END)
    .addEdge("compare", END)
    .addEdge("vote", END)
    .addEdge("revise", END)
    .addEdge("deep", END)
    .addEdge("council", END)
    .addConditionalEdges("debate_domain_planner", routeAfterPlanner, ["debate_round_executor", END])
    .addConditionalEdges("debate_round_executor", routeAfterTurn, ["debate_round_executor", "debate_vote", "debate_voice_pipeline", END])
    .addEdge("debate_vote", "debate_convergence")
    .addEdge("debate_convergence", "debate_synthesizer")
    .addConditionalEdges("debate_synthesizer", afterDebate, ["debate_voice_pipeline", END])
    .addEdge("debate_voice_pipeline", END);
  return graph
    .compile({ checkpointer: options.checkpointer, name: "debatt" })
    .withConfig({ recursionLimit: recursionLimitFor(MAX_PARTICIPANTS) });
}

/** The compiled graph type. */
export type DebattGraph = ReturnType<typeof buildGraph>;
