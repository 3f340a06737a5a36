import type { z } from "zod";
import type { ClientEvent } from "../state/events.js";
import type { Translate } from "../state/messages/index.js";
import type { Styles, Write } from "./narration.js";
import type { NotesOptions } from "./narrator-notes.js";
import type { SubgraphBuilder } from "../graph/build.js";
import type { HistoryCodec } from "../history/codec.js";
import type { PhaseAnswers } from "../providers/simulated/context.js";

/**
 * Everything the server needs to know of one format besides its command row (`FORMATS` in
 * `state/formats.ts`). The definitions are one table, `FORMAT_DEFINITIONS` in
 * `service/formats.ts`, typed `Record<FormatId, FormatDefinition>`: a format without a
 * definition, or a definition without one of these pieces, is a compile error. Every surface
 * reads the table; none lists formats by hand. A piece a format has no use for is `null`, said
 * explicitly.
 */
export interface FormatDefinition {
  /** How its runs are kept in the history and read back (`history/formats/<format>.ts`). */
  history: HistoryCodec;
  /** Its subgraph, mounted under the format's name; null for /debatt and /dvoice, whose nodes are the top graph's own. */
  subgraph: SubgraphBuilder | null;
  /**
   * Its own options (the run configuration's `mode_config`), one zod object with each option's
   * limits, used by every surface that takes them: `/api/v1/deliberate`'s `modeConfig`, the MCP
   * tool's `options`. The participants are not among them (each surface names them its way).
   */
  options: z.ZodObject;
  /** Whether a `seed` fixes its shuffles (speaking orders, labels): the MCP tool then takes one. */
  seeded: boolean;
  /** What its run answers with, as the docs name it (the content of its `/v1` model, the text of its MCP tool): "the synthesis". */
  result: string;
  /** The model id it is served as by the OpenAI-compatible API (`/v1`), or null when it is not. */
  openaiModel: string | null;
  /** Its MCP tool: the tool's name and what it does, or null when it has none. */
  mcp: { tool: string; description: string } | null;
  /**
   * Its body in `POST /api/v1/deliberate/stream` (under its stored mode), or null when that
   * endpoint does not run it: the word for it in errors (`Vote mode requires at least 3 models`),
   * what its participants are called there, and request fields named otherwise than its options.
   */
  deliberate: { label: string; noun?: string; modelsField?: string; renamed?: Record<string, string> } | null;
  /**
   * Its simulated answers (the offline provider's, without a key), by the phases of its row; the
   * registry requires one for each of them.
   */
  simulated: PhaseAnswers;
  /**
   * Whether `npm run eval` compares it as an arm (a format that gives one answer to a question it
   * can be scored on), and whether each round's answers are scored too (`rounds`).
   */
  evalArm: { rounds: boolean } | null;
  /** How the admin flow view draws its subgraph (its stage), or null for /debatt and /dvoice, drawn from the top graph. */
  drawing: FlowDrawing | null;
  /**
   * Whether an event is the one its runs open with (their start event): from then on, the
   * narrator and the outcome reader of a run follow this format.
   */
  starts(e: ClientEvent): boolean;
  /** Tells its events as text for people (the CLI, `/v1`'s reasoning, MCP's progress), in the reader's language. */
  narrate(context: NarrationContext): Narrator;
  /** What its runs come to for programs (MCP's structured content): the outcome's fields it fills, and how. */
  outcome: OutcomePart;
}

/** What a format's narrator writes with: where, how marked up, in which language; who is writing now (`status`). */
export interface NarrationContext {
  write: Write;
  c: Styles;
  t: Translate;
  status: (s: string) => void;
  options: NotesOptions;
}

/** Tells one event of a run for people; false for an event it does not handle. */
export type Narrator = (e: ClientEvent) => boolean;

/** The fields a format adds to a run's outcome (each described for MCP clients), and a reader of its events that fills them. */
export interface OutcomePart {
  fields: z.ZodRawShape;
  reader(): (e: ClientEvent, outcome: Record<string, unknown>) => void;
}

/**
 * A format subgraph's stage in the admin flow view: its name and colour, and what the graph alone
 * cannot tell: its nodes' labels, which run one task per participant, and the labels of its
 * conditional edges and loops. Node ids are as in the graph's x-ray view, without the stage prefix
 * when they already start with the format's name (`vote_tally`, `vote:deliberation_answer`).
 */
export interface FlowDrawing {
  label: string;
  color: string;
  labels: Record<string, string>;
  parallel: readonly string[];
  /** Labels of the conditional edges into a node, by the node. */
  branches?: Record<string, string>;
  /** Labels of the edges back to an earlier node, by `source→target`. */
  loops?: Record<string, string>;
}
