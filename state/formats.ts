/**
 * The formats: one row each (`state/formats/<format>.ts`), in one table that the command parser,
 * the planners, the estimate, the routes, the history and the page read. A format's server side
 * (its subgraph, options, history, outcome…) is its `FormatDefinition` in `service/formats.ts`,
 * and its page view is in `web/formats/`; both tables are typed by this one's ids, so the
 * compiler names whatever a new format lacks. No zod here: the page imports it.
 */
import { COMPARE } from "./formats/compare.js";
import { COUNCIL } from "./formats/council.js";
import { DEBATT, DVOICE } from "./formats/debatt.js";
import { DEEP } from "./formats/deep.js";
import { MOA } from "./formats/moa.js";
import { RANK } from "./formats/rank.js";
import { REVISE } from "./formats/revise.js";
import { VOTE } from "./formats/vote.js";
import type { FormatSpec } from "./format-spec.js";

export {
  DEBATE_ORDERS,
  MAX_PARTICIPANTS,
  MIN_PARTICIPANTS,
  VOICE_PACINGS,
  type DebateOrder,
  type FormatFlags,
  type FormatSpec,
  type VoicePacing,
} from "./format-spec.js";

/** A debate's rounds, by number (1–4): three of speaking, then the vote. */
export const ROUND_TYPES = ["introduction", "argument", "deepening", "voting"] as const;

/** Every format, by its command's name: the registry of formats. */
export const FORMATS = {
  debatt: DEBATT,
  dvoice: DVOICE,
  compare: COMPARE,
  vote: VOTE,
  revise: REVISE,
  deep: DEEP,
  council: COUNCIL,
  rank: RANK,
  moa: MOA,
} as const satisfies Record<string, FormatSpec>;

/** A format's name (`/vote` → `vote`). */
export type FormatId = keyof typeof FORMATS;

/** The names of all formats, in the table's order. */
export const FORMAT_IDS = Object.keys(FORMATS) as FormatId[];

/** The formats whose nodes are the top graph's own (the debate); every other format runs in a subgraph of its own. */
export const TOP_GRAPH_FORMATS = ["debatt", "dvoice"] as const satisfies readonly FormatId[];

/** A format that runs in its own subgraph, mounted under its name: its route, too. */
export type SubgraphFormat = Exclude<FormatId, (typeof TOP_GRAPH_FORMATS)[number]>;

/** The formats that run in their own subgraphs, in the table's order. */
export const SUBGRAPH_FORMATS = FORMAT_IDS.filter((id): id is SubgraphFormat => !(TOP_GRAPH_FORMATS as readonly string[]).includes(id));

/** The formats with their own conversations (the deliberation formats). */
export type DeliberationMode = { [K in FormatId]: (typeof FORMATS)[K]["thread"] extends "own" ? K : never }[FormatId];

/** The deliberation formats' names, in the table's order. */
export const DELIBERATION_MODES = FORMAT_IDS.filter((id): id is DeliberationMode => FORMATS[id].thread === "own");

/** What a conversation is stored as: a format's stored mode, or `chat`. */
export type StoredMode = (typeof FORMATS)[FormatId]["storedMode"] | "chat";

/** Whether a name is a format's (`vote`), not any other string. */
export function isFormatId(name: string): name is FormatId {
  return Object.hasOwn(FORMATS, name);
}

/** The format a stored mode belongs to (`debate` → `revise`), or undefined for chat. */
export function formatOfStoredMode(mode: string): FormatId | undefined {
  return FORMAT_IDS.find((id) => FORMATS[id].storedMode === mode);
}

/** What a run or a conversation is: a format's, or the plain chat's. */
export type RunKind = FormatId | "chat";

/**
 * A stored mode's kind (`debate` → `revise`; `chat` → `chat`). Stored modes are the store's and the
 * deliberate endpoint's names: they are read at those boundaries, and everything past them speaks of formats.
 */
export const kindOfStoredMode = (mode: string): RunKind => formatOfStoredMode(mode) ?? "chat";

/** The mode a kind of run is stored under (`revise` → `debate`). */
export const storedModeOf = (kind: RunKind): StoredMode => (kind === "chat" ? "chat" : FORMATS[kind].storedMode);

/** The conversation a message of this format belongs to: its own format's, or the chat's. */
export function threadKindOf(format: FormatId | undefined): FormatId | "chat" {
  return format && FORMATS[format].thread === "own" ? format : "chat";
}
