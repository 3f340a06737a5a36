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
import { FORMAT_PIECES } from "./formats/by-format.gen.js";

export type { FormatDefinition } from "./format-definition.js";

/** A format's definition, with a simulated answer for each phase of its row. */
type DefinitionOf<K extends FormatId> = FormatDefinition & { simulated: Record<(typeof FORMATS)[K]["phases"][number], PhaseAnswer> };

/**
 * Every format's server side, by the format's id: the one table every surface reads. Each is
 * `service/formats/<format>.ts`, listed by scripts/format-tables.ts from `FORMATS`; here the
 * compiler checks each against its row (a simulated answer for each of its phases).
 */
export const FORMAT_DEFINITIONS = FORMAT_PIECES satisfies { [K in FormatId]: DefinitionOf<K> };

/**
 * Throws when a generated table lacks a format of `FORMATS`. The tables are not committed: a
 * checkout whose registry gained a format since they were written (a pull, run with tsx, which does
 * not type-check) would otherwise start without the format's server side.
 */
export function checkGeneratedTable(table: object, ids: readonly string[] = FORMAT_IDS): void {
  const unlisted = ids.filter((id) => !Object.hasOwn(table, id));
  if (unlisted.length) throw new Error(`The generated format tables lack ${unlisted.join(", ")}: run \`npm run formats\` to write them from FORMATS.`);
}
checkGeneratedTable(FORMAT_PIECES);

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
