import { notesFields } from "../../state/answer.js";
import type { ClientEvent, ClientPayload } from "../../state/events.js";
import type { CardRound } from "../card.js";
import { memberOf, type Member, type RunPanel } from "./format-view.js";

/** A /moa run as the page shows it, built only from its events: each layer's answers, then the aggregator's. */
export interface MoaState {
  kind: "moa";
  question: string;
  participants: Member[];
  aggregator: Member;
  /** How many layers, the aggregator's included. */
  layers: number;
  /** Each layer's answers (1 = the first), by participant key, as they stream and once the layer is in. */
  answers: Record<number, Record<string, CardRound>>;
  /** The layer of proposers answering now (0 before the first). */
  layer: number;
  /** Set once the aggregator begins: the layer it reads, and how many answers of it. */
  reading?: { from: number; references: number };
  /** The aggregator's answer as it streams, then the run's answer (an answer of the last layer when the aggregator failed). */
  final: string;
  /** Set when the aggregator failed and a proposer's answer stands in: whose it is, and why. */
  fallback?: { display: string; error: string };
  title?: string;
  complete: boolean;
}

/** How the page follows a /moa run: `moa-start` begins it. */
export const MOA_PANEL: RunPanel<MoaState> = {
  kind: "moa",
  start: (e) =>
    e.event === "moa-start"
      ? {
          kind: "moa",
          question: e.data.question,
          participants: e.data.participants.map(memberOf),
          aggregator: memberOf(e.data.aggregator),
          layers: e.data.layers,
          answers: {},
          layer: 1,
          final: "",
          complete: false,
        }
      : undefined,
  reduce: reduceMoa,
};

/** A layer's answers once it is in: every answer whole, and who failed. */
function layerIn(s: MoaState, layer: number, d: ClientPayload<"stage1-complete">): MoaState {
  const answers: Record<string, CardRound> = { ...s.answers[layer] };
  for (const r of d.data) answers[r.modelKey] = { text: r.response, status: "ok", latencyMs: r.responseTimeMs, ...notesFields(r) };
  for (const f of d.failed) answers[f.modelKey] = { text: "", status: "error", error: f.error };
  return { ...s, answers: { ...s.answers, [layer]: answers } };
}

/** Applies one of /moa's events to its run (its title and completion are the panels' shared events); anything else leaves it as it is. */
function reduceMoa(s: MoaState, e: ClientEvent): MoaState {
  switch (e.event) {
    case "answer-delta": {
      if (e.data.mode !== "moa") return s;
      if (e.data.stage === "aggregate") return { ...s, final: s.final + e.data.delta };
      const layer = e.data.stage === "collect" ? 1 : e.data.stage === "proposal" ? s.layer : 0;
      if (layer === 0) return s;
      const key = e.data.modelKey;
      const prev = s.answers[layer]?.[key] ?? { text: "", status: "speaking" as const };
      return { ...s, answers: { ...s.answers, [layer]: { ...s.answers[layer], [key]: { ...prev, text: prev.text + e.data.delta } } } };
    }
    case "stage1-complete":
      return layerIn(s, 1, e.data);
    case "moa-layer-start":
      return { ...s, layer: e.data.layer };
    case "moa-layer-complete":
      return layerIn(s, e.data.layer, e.data);
    case "moa-aggregate-start":
      return { ...s, reading: { from: e.data.from, references: e.data.references } };
    case "moa-final": {
      const f = e.data.data;
      return { ...s, final: f.answer, ...(f.fallback ? { fallback: { display: f.display, error: f.error ?? "" } } : {}) };
    }
    default:
      return s;
  }
}
