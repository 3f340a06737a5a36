import { buildGraph } from "../graph/build.js";
import type { HistoryFormats } from "../history/codec.js";
import { openHistory } from "../history/open.js";
import type { HistoryStore } from "../history/store.js";
import type { NodeDeps } from "../ports/node-deps.js";
import { CORE_ANSWERS, SimulatedModelFactory, type PhaseAnswer, type PhaseTable, type SimulatedOptions } from "../providers/simulated.js";
import { z } from "zod";
import { DebattError } from "../state/errors.js";
import { FORMAT_IDS, FORMATS, type FormatId } from "../state/formats.js";
import type { FormatDefinition } from "./format-definition.js";
import { compare } from "./formats/compare.js";
import { council } from "./formats/council.js";
import { debatt, dvoice } from "./formats/debatt.js";
import { deep } from "./formats/deep.js";
import { moa } from "./formats/moa.js";
import { rank } from "./formats/rank.js";
import { revise } from "./formats/revise.js";
import { vote } from "./formats/vote.js";

export type { FormatDefinition } from "./format-definition.js";

/** A format's definition, with a simulated answer for each phase of its row. */
type DefinitionOf<K extends FormatId> = FormatDefinition & { simulated: Record<(typeof FORMATS)[K]["phases"][number], PhaseAnswer> };

/** Every format's server side, by the format's id: the one table every surface reads. */
export const FORMAT_DEFINITIONS = { debatt, dvoice, compare, vote, revise, deep, council, rank, moa } satisfies { [K in FormatId]: DefinitionOf<K> };

/** The formats' ids, in the table's order (`FORMAT_IDS`): the order the tools, models and flow stages are listed in. */
export const DEFINED_FORMATS = FORMAT_IDS;

/** One piece of every format's definition, by format id. */
function pieceOf<K extends keyof FormatDefinition>(key: K): Record<FormatId, FormatDefinition[K]> {
  return Object.fromEntries(DEFINED_FORMATS.map((id) => [id, (FORMAT_DEFINITIONS[id] as FormatDefinition)[key]])) as Record<FormatId, FormatDefinition[K]>;
}

/** The formats `npm run eval` compares as arms, in the formats' order. */
export const EVAL_FORMATS = DEFINED_FORMATS.filter((id) => (FORMAT_DEFINITIONS[id] as FormatDefinition).evalArm !== null);

/** The formats served as models of the OpenAI-compatible API, by model id. */
export const OPENAI_MODELS: Readonly<Record<string, FormatId>> = Object.fromEntries(
  Object.entries(FORMAT_DEFINITIONS).flatMap(([id, d]) => (d.openaiModel ? [[d.openaiModel, id as FormatId]] : [])),
);

/** Each format's options as a run's `mode_config` has them: its definition's, and the participants (`models`). */
const MODE_CONFIGS = new Map<FormatId, z.ZodType>(
  DEFINED_FORMATS.map((id) => [id, (FORMAT_DEFINITIONS[id] as FormatDefinition).options.extend({ models: z.array(z.string().min(1)).optional() }).strict()]),
);

/**
 * Checks a run's `mode_config` against its format's options, whichever surface started it:
 * `invalid_mode_config` naming the field (an option the format does not have, a value out of its
 * limits). Nothing for a run without a format or options.
 */
export function checkFormatOptions(format: FormatId | undefined, modeConfig: unknown): void {
  if (format === undefined || modeConfig === undefined) return;
  const parsed = MODE_CONFIGS.get(format)!.safeParse(modeConfig);
  if (!parsed.success)
    throw new DebattError("invalid_mode_config", `${FORMATS[format].command}'s options: ${z.prettifyError(parsed.error).replace(/\n/g, "; ")}`);
}

/** Every phase's simulated answer: the core phases' and each format's. */
export const SIMULATED_ANSWERS: PhaseTable = Object.assign({}, CORE_ANSWERS, ...DEFINED_FORMATS.map((id) => FORMAT_DEFINITIONS[id].simulated));

/** The offline provider (no key) with every format's simulated answers. */
export function simulatedModels(options: SimulatedOptions): SimulatedModelFactory {
  return new SimulatedModelFactory(options, SIMULATED_ANSWERS);
}

/** Every format's history codec, by format id: what the history store is opened with. */
export const HISTORY_FORMATS: HistoryFormats = pieceOf("history");

/** Opens the history database (`openHistory`) with every format's codec. */
export function openAppHistory(settings: Parameters<typeof openHistory>[0], log?: (line: string) => void): Promise<HistoryStore> {
  return openHistory(settings, HISTORY_FORMATS, log);
}

/** The debatt graph with every format's subgraph: what the run service, Studio, the benchmarks and the tests run. */
export function buildAppGraph(deps: NodeDeps, options: Omit<Parameters<typeof buildGraph>[1], "formats">) {
  return buildGraph(deps, { ...options, formats: FORMAT_DEFINITIONS });
}
