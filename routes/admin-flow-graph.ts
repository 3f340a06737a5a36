import { Router } from "express";
import type { DebattGraph } from "../graph/build.js";
import { DEFINED_FORMATS, FORMAT_DEFINITIONS, type FormatDefinition } from "../service/formats.js";
import { ROUNDS, TOTAL_ROUNDS } from "../state/debate.js";
import type { SubgraphFormat } from "../state/formats.js";

/** The stages of the flow view: the /debatt debate, then one per format subgraph (by its format's name). */
export type StageId = "debate" | SubgraphFormat;

/** The format subgraphs, each drawn as its own stage in a row below the debate, in the definitions' order. */
const SUBGRAPH_STAGES = DEFINED_FORMATS.flatMap((id) => {
  const { drawing }: FormatDefinition = FORMAT_DEFINITIONS[id];
  return drawing ? [{ id: id as SubgraphFormat, drawing }] : [];
});
/** Where the first subgraph stage's row is drawn, and the distance between rows. */
const FIRST_ROW_Y = 2600;
const ROW_HEIGHT = 160;

/** One pipeline node of the admin flow view. */
export interface FlowNode {
  id: string;
  label: string;
  stage: StageId;
  /** Canvas position on the admin flow-graph page. */
  position: { x: number; y: number };
  /** False for a node of the pipeline view that the code does not have. */
  implemented: boolean;
}

/** One edge of the flow view. */
export interface FlowEdge {
  source: string;
  target: string;
  label?: string;
  conditional?: boolean;
}

/** The flow view: stages, nodes and edges. */
export interface FlowGraph {
  stages: { id: StageId; label: string; color: string }[];
  nodes: FlowNode[];
  edges: FlowEdge[];
}

const ROUND_LABELS: Record<string, string> = { introduction: "Introduktion", argument: "Argument", deepening: "Fördjupning" };
const LABELS: Record<string, string> = {
  debate_domain_planner: "Debate Domain Planner",
  debate_round_executor: "Debate Round Executor",
  debate_turn: "Simultaneous Turns (parallel)",
  debate_person_turn: "Person's Turn (--with-me, waits)",
  debate_oneseek_agent: "OneSeek Debate Agent",
  [`debate_round_${TOTAL_ROUNDS}_voting`]: `Runda ${TOTAL_ROUNDS}: Röstning`,
  debate_convergence: "Debate Convergence",
  debate_synthesizer: "Debate Synthesizer",
  debate_voice_pipeline: "Voice Pipeline",
  ...Object.fromEntries(ROUNDS.map((r) => [`debate_round_${r.round}`, `Runda ${r.round}: ${ROUND_LABELS[r.type]}`])),
};
const POSITIONS: Record<string, { x: number; y: number }> = {
  debate_domain_planner: { x: 240, y: 1920 },
  debate_round_executor: { x: 800, y: 1920 },
  debate_turn: { x: 1080, y: 1920 },
  debate_person_turn: { x: 1360, y: 1920 },
  debate_round_1: { x: 800, y: 2080 },
  debate_round_2: { x: 1080, y: 2080 },
  debate_round_3: { x: 1360, y: 2080 },
  debate_round_4_voting: { x: 1640, y: 2080 },
  debate_oneseek_agent: { x: 520, y: 2240 },
  debate_convergence: { x: 1080, y: 2400 },
  debate_synthesizer: { x: 1360, y: 2400 },
  debate_voice_pipeline: { x: 240, y: 2400 },
};

/** The graph node that runs the parallel vote is shown as round 4 (`debate_round_4_voting`). */
const VOTE_NODE = "debate_vote";
const VOTING = `debate_round_${TOTAL_ROUNDS}_voting`;
const VOICE_NODE = "debate_voice_pipeline";
/** The node that runs a simultaneous round's turns, one task per participant. */
const TURN_NODE = "debate_turn";
/** The node that waits for the turn of the person who joined (`--with-me`). */
const PERSON_NODE = "debate_person_turn";

/**
 * Derives the debate's pipeline view from the compiled graph, so it cannot drift from the code:
 * every debate node and edge of the graph, with the round executor's loop unrolled into its rounds
 * (executor → round n, round n → round n+1, last round → the vote) and OneSeek's research as a
 * sub-step of the rounds. The graph's edges into the voice pipeline are drawn as one conditional
 * `/dvoice` edge from the round executor, which hands it every answer.
 * Each format subgraph is a stage of its own, drawn as its definition says (`drawing`), its
 * nodes in a row in pipeline order. A subgraph node is named as in the graph's x-ray view (`vote:vote_tally`), without the
 * stage prefix when its name already starts with the stage (`vote_tally`).
 */
export async function flowGraph(graph: DebattGraph): Promise<FlowGraph> {
  const drawable = await graph.getGraphAsync({ xray: true });
  const graphIds = new Set(Object.values(drawable.nodes).map((n) => n.id));
  const show = (id: string) => (id === VOTE_NODE ? VOTING : id);
  const edges: FlowEdge[] = [];
  const rounds = ROUNDS.map((r) => `debate_round_${r.round}`);
  for (const e of drawable.edges) {
    if (!e.source.startsWith("debate_") || !e.target.startsWith("debate_")) continue;
    if (e.target === VOICE_NODE) {
      // The executor hands every answer to the voice pipeline; the graph reaches the node itself
      // after the synthesis (or an early end), so that `done` waits for the audio.
      if (!edges.some((x) => x.target === VOICE_NODE)) {
        edges.push({ source: "debate_round_executor", target: VOICE_NODE, label: "/dvoice", conditional: true });
      }
    } else if (e.source === e.target) {
      // The loop edge: one round per step, round after round.
      rounds.forEach((r, i) => edges.push({ source: e.source, target: r, label: `runda ${i + 1}` }));
      rounds.slice(1).forEach((r, i) => edges.push({ source: rounds[i], target: r }));
    } else if (e.target === TURN_NODE) {
      // A simultaneous debate's rounds: every participant's turn at once, back to the executor.
      edges.push({ source: e.source, target: TURN_NODE, label: "--order simultaneous ×N", conditional: true });
    } else if (e.target === PERSON_NODE) {
      edges.push({ source: e.source, target: PERSON_NODE, label: "--with-me", conditional: true });
    } else if (e.target === VOTE_NODE) {
      edges.push({ source: rounds[rounds.length - 1], target: VOTING });
    } else {
      edges.push({ source: show(e.source), target: show(e.target) });
    }
  }
  edges.push(
    { source: "debate_domain_planner", target: "debate_oneseek_agent", label: "OneSeek" },
    { source: "debate_oneseek_agent", target: rounds[0], label: "deltar i rundor" },
  );
  const stageOf = new Map<string, StageId>();
  const position = new Map<string, { x: number; y: number }>();
  const labels: Record<string, string> = { ...LABELS };
  for (const [row, stage] of SUBGRAPH_STAGES.entries()) {
    const { drawing } = stage;
    Object.assign(labels, drawing.labels);
    const prefix = `${stage.id}:`;
    const show = (id: string) => (id.startsWith(`${prefix}${stage.id}_`) ? id.slice(prefix.length) : id);
    for (const e of drawable.edges) {
      if (e.source.startsWith(prefix) && e.target.startsWith(prefix)) {
        const target = show(e.target);
        // The moderator's loop back to the arguments is the next round.
        const label = drawing.loops?.[`${show(e.source)}→${target}`] ?? (drawing.parallel.includes(target) ? "×N" : drawing.branches?.[target]);
        edges.push({ source: show(e.source), target, ...(e.conditional ? { conditional: true, ...(label ? { label } : {}) } : {}) });
      }
    }
    const inStage = [...graphIds].filter((id) => id.startsWith(prefix)).map(show);
    inStage.forEach((id, i) => {
      stageOf.set(id, stage.id);
      position.set(id, { x: 240 + 280 * i, y: FIRST_ROW_Y + ROW_HEIGHT * row });
    });
  }
  const ids = [...new Set(edges.flatMap((e) => [e.source, e.target]))];
  const subSteps = new Set([...rounds, VOTING, "debate_oneseek_agent"]);
  return {
    stages: [
      { id: "debate", label: "Debatt", color: "amber" },
      ...SUBGRAPH_STAGES.map(({ id, drawing }) => ({ id, label: drawing.label, color: drawing.color })),
    ],
    nodes: ids.map((id) => ({
      id: `node:${id}`,
      label: labels[id] ?? id,
      stage: stageOf.get(id) ?? "debate",
      position: POSITIONS[id] ?? position.get(id) ?? { x: 0, y: 0 },
      implemented: graphIds.has(id) || subSteps.has(id) || stageOf.has(id),
    })),
    edges: edges.map((e) => ({ ...e, source: `node:${e.source}`, target: `node:${e.target}` })),
  };
}

/** `GET /flow-graph` (mounted under /api/v1/admin). */
export function adminFlowGraphRouter(graph: DebattGraph): Router {
  const router = Router();
  router.get("/flow-graph", async (_req, res) => {
    res.json(await flowGraph(graph));
  });
  return router;
}
