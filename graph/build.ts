import { withoutArenaData } from "../state/text.js";
import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { Runnable } from "@langchain/core/runnables";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeContinueAnswer } from "../nodes/chat/continue-answer.js";
import { makeSupervisor } from "../nodes/chat/supervisor.js";
import { makeDebateConvergence } from "../nodes/debatt/debate-convergence.js";
import { makeDebateDomainPlanner } from "../nodes/debatt/debate-domain-planner.js";
import { makeDebateRoundExecutor } from "../nodes/debatt/debate-round-executor.js";
import { makeDebateSynthesizer } from "../nodes/debatt/debate-synthesizer.js";
import { makeDebateVoicePipeline } from "../nodes/debatt/debate-voice-pipeline.js";
import { makeDebateBallot } from "../nodes/debatt/debate-vote.js";
import { makeDebateTurn } from "../nodes/debatt/debate-turn.js";
import { makeDebatePersonTurn } from "../nodes/debatt/debate-person-turn.js";
import { VoiceRuns } from "../nodes/debatt/lib/voice-runs.js";
import { makeResolveIntent } from "../nodes/router/resolve-intent.js";
import { runConfigSchema, type RunDefaults } from "../state/run-config.js";
import { GraphState } from "../state/graph-state.js";
import { MAX_PARTICIPANTS, type FormatId } from "../state/formats.js";
import { answering, lastAiText } from "./answers.js";
import { afterDebate, recursionLimitFor, routeAfterIntent, routeAfterPlanner, routeAfterTurn, voteTasks } from "./edges.js";
import { isVoterTask, parallelCalls, taskNode } from "./tasks.js";

/**
 * Builds and compiles the debatt graph:
 *
 *   resolve_intent ─┬─ supervisor → END
 *                   ├─ continue_answer (a follow-up to one participant of a finished run) → END
 *                   ├─ <format> (its subgraph, one per format that has one: /compare, /vote, /revise,
 *                   │            /deep, /council, …; each drawn in docs/architecture.md) → END
 *                   ├─ debate_domain_planner → debate_round_executor ⟲ (a round per step, a task per turn; or, with
 *                   │     --order simultaneous, each round's turns ×N in parallel in debate_turn;
 *                   │     with --with-me, the person's turn in debate_person_turn, which waits for them)
 *                   │     → debate_vote (a call per participant, in parallel) → debate_convergence → debate_synthesizer
 *                   │     → (/dvoice) debate_voice_pipeline → END
 *                   └─ END (command without a topic)
 *
 * The subgraphs are the formats' definitions' (`options.formats`), each mounted under its format's
 * name. Each format's subgraph runs on its own state and shares with this graph only the keys of
 * state/shared.ts. Every route that answers leaves its answer in `answer` and as the last AI
 * message of `messages` (/debatt's is its synthesis, the chat's its reply). The run configuration
 * (`runConfigSchema`) is the Studio form. The recursion limit is set for the largest debate (8
 * participants and a person).
 */
export function buildGraph(deps: NodeDeps, options: { checkpointer?: BaseCheckpointSaver; settings: RunDefaults; formats: FormatGraphs }) {
  const voice = new VoiceRuns(deps.voice);
  const subgraphs = Object.entries(options.formats).flatMap(([id, f]) => (f.subgraph ? [[id, f.subgraph(deps)] as const] : []));
  const graph = new StateGraph(GraphState, runConfigSchema(options.settings))
    .addNode("resolve_intent", makeResolveIntent(deps))
    .addNode("supervisor", answering(makeSupervisor(deps), lastAiText))
    .addNode("continue_answer", makeContinueAnswer(deps))
    // Each format's subgraph, under the format's name.
    .addNode(Object.fromEntries(subgraphs) as Record<string, Runnable>)
    .addNode("debate_domain_planner", makeDebateDomainPlanner(deps))
    .addNode("debate_round_executor", makeDebateRoundExecutor(deps, voice))
    .addNode("debate_turn", taskNode(makeDebateTurn(deps, voice)))
    .addNode("debate_person_turn", makeDebatePersonTurn(deps))
    .addNode("debate_vote", parallelCalls("debate_vote", makeDebateBallot(deps), voteTasks, isVoterTask))
    .addNode("debate_convergence", makeDebateConvergence(deps))
    .addNode(
      "debate_synthesizer",
      answering(makeDebateSynthesizer(deps), (update) =>
        typeof update.debate_synthesis === "string" ? withoutArenaData(update.debate_synthesis).trim() : undefined,
      ),
    )
    .addNode("debate_voice_pipeline", makeDebateVoicePipeline(voice))
    .addEdge(START, "resolve_intent")
    .addConditionalEdges("resolve_intent", routeAfterIntent, ["debate_domain_planner", ...subgraphs.map(([id]) => id), "supervisor", "continue_answer", END])
    .addEdge("supervisor", END)
    .addEdge("continue_answer", END)
    .addConditionalEdges("debate_domain_planner", routeAfterPlanner, ["debate_round_executor", END])
    .addConditionalEdges("debate_round_executor", routeAfterTurn, [
      "debate_round_executor",
      "debate_turn",
      "debate_person_turn",
      "debate_vote",
      "debate_voice_pipeline",
      END,
    ])
    .addEdge("debate_turn", "debate_round_executor")
    .addEdge("debate_person_turn", "debate_round_executor")
    .addEdge("debate_vote", "debate_convergence")
    .addEdge("debate_convergence", "debate_synthesizer")
    .addConditionalEdges("debate_synthesizer", afterDebate, ["debate_voice_pipeline", END])
    .addEdge("debate_voice_pipeline", END);
  for (const [id] of subgraphs) graph.addEdge(id, END);
  return graph.compile({ checkpointer: options.checkpointer, name: "debatt" }).withConfig({ recursionLimit: recursionLimitFor(MAX_PARTICIPANTS, true) });
}

/**
 * What the top graph needs of each format: its subgraph's builder, mounted under the format's
 * name (null for /debatt and /dvoice, whose nodes are the top graph's own). The formats'
 * definitions (`service/formats.ts`) are given, so this layer lists no format by hand.
 */
export type FormatGraphs = Record<FormatId, { subgraph: SubgraphBuilder | null }>;

/** Builds a format's compiled subgraph, on its own state, from the nodes' dependencies. */
export type SubgraphBuilder = (deps: NodeDeps) => Runnable;

/** The compiled graph type. */
export type DebattGraph = ReturnType<typeof buildGraph>;
