/**
 * The formats and their rules, in one table that the command parser, the planners, the routes,
 * the history and the page read. No zod here: the page imports it.
 */

/** What an option written before a question sets (`/council --debate …` → `{ debate: true }`). */
export interface FormatFlags {
  antiAnchoring?: boolean;
  debate?: boolean;
  /** /debatt, /dvoice: `sequential` (each speaker sees the round so far) or `simultaneous` (all answer at once, seeing earlier rounds only). */
  order?: DebateOrder;
  /** /dvoice: `paced` releases each speaker's text only once the previous speaker's audio starts playing. */
  voicePacing?: VoicePacing;
  /** /debatt: the person who asks takes a seat among the participants (`--with-me`). */
  withMe?: boolean;
}

/** How a debate's speakers take their turns within a round. */
export const DEBATE_ORDERS = ["sequential", "simultaneous"] as const;
export type DebateOrder = (typeof DEBATE_ORDERS)[number];

/** Whether a spoken debate's text waits for its audio (`paced`) or runs ahead of it (`off`). */
export const VOICE_PACINGS = ["off", "paced"] as const;
export type VoicePacing = (typeof VOICE_PACINGS)[number];

/** The speaking orders a debate takes before its topic: `--order simultaneous` and `--order sequential`. */
const orderFlags = { "--order simultaneous": { order: "simultaneous" }, "--order sequential": { order: "sequential" } } as const satisfies Record<string, FormatFlags>;
/** A written debate's options: the orders and `--with-me` (the person takes a seat). */
const debateFlags = { ...orderFlags, "--with-me": { withMe: true } } as const satisfies Record<string, FormatFlags>;
/**
 * A spoken debate's options: the orders, `--paced` (the text keeps pace with the audio) and
 * `--paced off` (it runs ahead, whatever the voice settings say). No `--with-me`: a person's turn has no voice.
 */
const voiceFlags = { ...orderFlags, "--paced": { voicePacing: "paced" }, "--paced off": { voicePacing: "off" } } as const satisfies Record<string, FormatFlags>;

/** A debate's rounds, by number (1–4): three of speaking, then the vote. */
export const ROUND_TYPES = ["introduction", "argument", "deepening", "voting"] as const;

/** Smallest and largest number of debaters a debate accepts. */
export const MIN_PARTICIPANTS = 2;
export const MAX_PARTICIPANTS = 8;

/** The formats with their own conversations (the deliberation formats). */
export const DELIBERATION_MODES = ["vote", "revise", "deep", "council"] as const;
export type DeliberationMode = (typeof DELIBERATION_MODES)[number];

/** A format: the graph route it runs, and the rules every layer reads from here. */
export interface FormatSpec {
  /** The chat command that runs it. */
  command: `/${string}`;
  /** What the command is followed by: a topic to debate, a question to answer, or a claim to judge. */
  takes: "topic" | "question" | "claim";
  /** The mode its conversations are stored under, which is also its `mode` in the deliberate endpoint. */
  storedMode: string;
  /** How many participants, how many by default (else all up to `max`), and whether a model named twice is two participants. */
  participants: { min: number; max: number; byDefault?: number; duplicates: "merge" | "separate" };
  /** `chat`: it shares the chat's conversation (any message may follow it); `own`: its conversation holds only its own questions. */
  thread: "chat" | "own";
  /** Whether its conversation takes follow-up questions. */
  multiTurn: boolean;
  /** Options written before the question (`/council --debate <claim>`, `/debatt --order simultaneous <topic>`) and what each sets. */
  flags: Record<string, FormatFlags>;
  /** Rounds a request may ask for: the fewest, the default and the most. */
  rounds?: { min: number; default: number; max: number };
}

const debate = { min: MIN_PARTICIPANTS, max: MAX_PARTICIPANTS, duplicates: "merge" } as const;

/** Every format, by its command's name. */
export const FORMATS = {
  debatt: { command: "/debatt", takes: "topic", storedMode: "debatt", participants: debate, thread: "chat", multiTurn: true, flags: debateFlags },
  dvoice: { command: "/dvoice", takes: "topic", storedMode: "dvoice", participants: debate, thread: "chat", multiTurn: true, flags: voiceFlags },
  compare: { command: "/compare", takes: "question", storedMode: "compare", participants: debate, thread: "chat", multiTurn: true, flags: {} },
  vote: { command: "/vote", takes: "question", storedMode: "vote", participants: { min: 3, max: 7, duplicates: "merge" }, thread: "own", multiTurn: true, flags: {} },
  // A model named twice is two participants with their own answers and labels; "debate" is the stored name of /revise.
  revise: {
    command: "/revise",
    takes: "question",
    storedMode: "debate",
    participants: { min: 3, max: 6, duplicates: "separate" },
    thread: "own",
    multiTurn: false,
    flags: { "--anti-anchoring": { antiAnchoring: true } },
  },
  // Every round asks every debater, so four by default keeps a debate affordable.
  deep: {
    command: "/deep",
    takes: "question",
    storedMode: "deep",
    participants: { min: 2, max: 6, byDefault: 4, duplicates: "merge" },
    thread: "own",
    multiTurn: true,
    flags: {},
    rounds: { min: 2, default: 3, max: 6 },
  },
  // One judge per perspective; three perspectives by default.
  council: {
    command: "/council",
    takes: "claim",
    storedMode: "council",
    participants: { min: 2, max: 6, byDefault: 3, duplicates: "merge" },
    thread: "own",
    multiTurn: false,
    flags: { "--debate": { debate: true } },
  },
} as const satisfies Record<string, FormatSpec>;

/** A format's name (`/vote` → `vote`). */
export type FormatId = keyof typeof FORMATS;

/** The names of all formats, in the table's order. */
export const FORMAT_IDS = Object.keys(FORMATS) as FormatId[];

/** What a conversation is stored as: a format's stored mode, or `chat`. */
export type StoredMode = (typeof FORMATS)[FormatId]["storedMode"] | "chat";

/** The format a stored mode belongs to (`debate` → `revise`), or undefined for chat. */
export function formatOfStoredMode(mode: string): FormatId | undefined {
  return FORMAT_IDS.find((id) => FORMATS[id].storedMode === mode);
}

/** The conversation a message of this format belongs to: its own format's, or the chat's. */
export function threadKindOf(format: FormatId | undefined): FormatId | "chat" {
  return format && FORMATS[format].thread === "own" ? format : "chat";
}
