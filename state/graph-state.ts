import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { accumulated, appended, replace } from "./channels.js";
import { FormatOptionsSchema } from "./run-config.js";
import { ROUNDS, type Ballot, type Convergence, type DebateStatus, type Turn } from "./debate.js";
import { DEBATE_ORDERS, DELIBERATION_MODES, SUBGRAPH_FORMATS, VOICE_PACINGS } from "./formats.js";
import type { Participant } from "./participants.js";
import type { Material } from "./client-material.js";
import { ContinuationSchema, type Continuation } from "./continuation.js";
import { sharedChannels } from "./shared.js";

/** Where resolve_intent sends a message: a format, the chat, a follow-up, or an explanation of how to write it. */
export const ROUTES = ["debate", ...SUBGRAPH_FORMATS, "supervisor", "continue", "usage"] as const;
/** A route of resolve_intent. */
export type Route = (typeof ROUTES)[number];

/** Round answers with `added` merged in, round by round (the reducer of `debate_round_responses`). */
export function mergeRoundResponses(
  current: Record<number, Record<string, string>>,
  added: Record<number, Record<string, string>>,
): Record<number, Record<string, string>> {
  const merged = { ...current };
  for (const [round, answers] of Object.entries(added)) merged[Number(round)] = { ...current[Number(round)], ...answers };
  return merged;
}

/**
 * The top graph's state: the message and where it goes, the keys it shares with the format
 * subgraphs (each of which has its own state: state/vote.ts, state/revise.ts, …), and /debatt's
 * own keys. Every key is declared: LangGraph drops undeclared keys silently.
 */
export const GraphState = Annotation.Root({
  /** The user's message, e.g. `/debatt Bör AI regleras?` (input). */
  message: replace<string>(() => ""),
  /** Where resolve_intent sent the message. */
  route: replace<Route | null>(() => null),
  /** A follow-up to one participant of a finished run (input; null for any other message). */
  continuation: replace<Continuation | null>(() => null),
  /** Material that came with the message (a client's retrieved text, files), by source (input; read with the question). */
  material: replace<Material[]>(() => []),
  ...sharedChannels,

  /** True for /dvoice: the debate is also spoken (audio comes with the voice pipeline). */
  voice_mode: replace<boolean>(() => false),
  /** Id of this debate run (sent in `debate-init` as `debate_id`). */
  debate_id: replace<string | null>(() => null),
  /** Seed of the per-round shuffles, fixed at planning so a resumed run keeps its orders. */
  debate_seed: replace<number>(() => 0),
  /** The debaters of this run, in roster order. */
  debate_participants: replace<Participant[]>(() => []),
  /** The debate topic (the message without its command). */
  debate_topic: replace<string | null>(() => null),
  /** Round in progress: 1–3 spoken, 4 the vote. */
  debate_current_round: replace<number | null>(() => null),
  /** Speaking order (participant keys) of each spoken round, drawn when the round starts. */
  debate_round_order: replace<Record<number, string[]>>(() => ({})),
  /** Index into the current round's order of the next speaker. */
  debate_turn_index: replace<number>(() => 0),
  /**
   * Answers per round, by display name, in speaking order (round → display name → answer).
   * Each turn writes only its own answer, merged in here, so a step's write stays small however
   * long the debate grows (the planner resets it with Overwrite).
   */
  debate_round_responses: accumulated<Record<number, Record<string, string>>>(mergeRoundResponses, () => ({})),
  /** Every turn of rounds 1–3, including failed ones; each turn appends its own (reset by the planner). */
  debate_turns: appended<Turn>(),
  /** Ballots of the parallel vote; each vote task appends its own (reset by the planner). */
  debate_votes: appended<Ballot>(),
  /** Words spoken per participant over all rounds (the tiebreak). */
  debate_word_counts: replace<Record<string, number>>(() => ({})),
  /** Status life cycle: initializing → round_1 → … → complete (or error). */
  debate_status: replace<DebateStatus | null>(() => null),
  /** Characters of another participant's answer a speaker or voter is shown (the run's `context_chars`). */
  debate_context_chars: replace<number>(() => 600),
  /** Word limit of each spoken round (1–3), fixed at planning: /dvoice's come from the voice settings. */
  debate_word_limits: replace<number[]>(() => ROUNDS.map((r) => r.words)),
  /** /dvoice paced: each speaker's text waits until the previous speaker's audio starts playing. */
  debate_voice_paced: replace<boolean>(() => false),
  /** Epoch ms by which the whole vote round must have finished. */
  debate_vote_deadline: replace<number | null>(() => null),
  /** Computed vote results and the model's convergence analysis. */
  debate_results: replace<Convergence | null>(() => null),
  /** The final synthesis text (markdown, beginning with the debate-arena-data block). */
  debate_synthesis: replace<string | null>(() => null),
  /** Why a debate stopped early, if it did. */
  debate_error: replace<string | null>(() => null),
});

/** The state as nodes see it. */
export type State = typeof GraphState.State;
/** A partial update a node returns. */
export type StateUpdate = typeof GraphState.Update;

/** Every `DebateStatus`, for the state's schema: `satisfies` refuses one too many, `listsEvery` one missing. */
const DEBATE_STATUSES = [
  "initializing",
  "round_1",
  "round_2",
  "round_3",
  "voting",
  "results",
  "synthesis",
  "complete",
  "error",
] as const satisfies readonly DebateStatus[];
const listsEvery: [Exclude<DebateStatus, (typeof DEBATE_STATUSES)[number]>] extends [never] ? true : never = true;
void listsEvery;

/** An object kept as it is: described for LangGraph Studio, never stripped or checked key by key. */
const record = (description: string) => z.record(z.string(), z.unknown()).describe(description);
/**
 * A conversation's messages: a list of LangChain messages (or message-like objects, as Studio
 * sends them), shown by Studio as a chat (`langgraph_type: "messages"`).
 */
const messagesSchema = (description: string) => z.array(z.unknown()).meta({ description, langgraph_type: "messages" });

/**
 * The options a run's input may set (LangGraph Studio's input form), named as the state's
 * `options` names them: they go over the run configuration's, and options written in the message
 * win over them. Any other key is refused.
 */
export const RunOptionsSchema = FormatOptionsSchema.extend({
  order: z
    .enum(DEBATE_ORDERS)
    .optional()
    .describe("/debatt: sequential (each sees the round so far) or simultaneous (all answer at once, seeing earlier rounds)"),
  voicePacing: z
    .enum(VOICE_PACINGS)
    .optional()
    .describe("/dvoice: paced (the text waits for the audio) or off (unset: the voice settings' pacing, else paced when each answer's opening is spoken)"),
  withMe: z.boolean().optional().describe("/debatt: you take a seat among the participants, write your own turns and vote"),
  personName: z.string().optional().describe("/debatt with withMe: the name the models know you by"),
}).strict();
/** A run's options as its input gives them. */
export type RunOptions = z.infer<typeof RunOptionsSchema>;

/**
 * The graph's input as the LangGraph API server and Studio take it (Studio's form): the message
 * (a command and its question), who takes part and this run's options, plus what the run service
 * sends (a follow-up's continuation, the conversation's earlier messages).
 */
export const GraphInputSchema = z.object({
  message: z
    .string()
    .optional()
    .describe(
      "The message: a command and its question, e.g. `/debatt Bör AI regleras?`, `/compare Vad är 2+2?`, `/vote …`, `/revise …`, `/deep …`, `/council …` (options may come before the question: `/debatt --order simultaneous …`); anything else is a chat message",
    ),
  participants: z
    .array(z.string())
    .nullable()
    .optional()
    .describe("Who takes part: roster keys, display names or model ids (unset: the format's own participants)"),
  options: RunOptionsSchema.optional().describe("This run's options, over the run configuration's (options written in the message win)"),
  continuation: ContinuationSchema.nullable().optional().describe("A follow-up to one participant of a finished run (the run service sets it)"),
  material: z
    .array(z.object({ name: z.string(), text: z.string() }))
    .optional()
    .describe("Material every participant reads with the question, by source (a client's retrieved text, files)"),
  messages: messagesSchema("Earlier messages of the conversation, or a chat message to append (Studio's chat)").optional(),
});

/**
 * The top graph's state as JSON-describable zod (what Studio shows and lets you edit); the
 * channels themselves are `GraphState`'s, whose keys this has exactly (checked by the compiler).
 * Objects are described, not checked key by key.
 */
export const GraphStateSchema = z.object({
  message: z.string().describe("The user's message, until resolve_intent reads it (then empty)"),
  route: z.enum(ROUTES).nullable().describe("Where resolve_intent sent the message"),
  continuation: record("A follow-up to one participant of a finished run: the run, the participant, what it said (null for any other message)").nullable(),
  material: z
    .array(record("A source of material: its name and text"))
    .describe("Material that came with the message, by source, until resolve_intent reads it"),
  run_id: z.string().nullable().describe("This run's id: the `messageId` of a format's events"),
  question: z.string().describe("The question: the message without its command and options (with the material after it, as the models read it)"),
  asked: z.string().describe("The question or topic as typed, without the material: what people are shown"),
  participants: z.array(z.string()).nullable().describe("Participant keys or names requested for this run (null: the format's)"),
  options: record("The format's options: the run configuration's, with this run's and the message's on top"),
  messages: messagesSchema("The conversation: every question and answer of the thread"),
  conversation_mode: z.enum(DELIBERATION_MODES).nullable().describe("The format of the conversation's first run"),
  conversation_title: z.string().nullable().describe("The conversation's title, generated by its first run"),
  answer: z.string().nullable().describe("What the user reads as this run's answer (a winner's answer, a synthesis, a report); also the last AI message"),
  voice_mode: z.boolean().describe("True for /dvoice: the debate is also spoken"),
  debate_id: z.string().nullable().describe("Id of this debate run"),
  debate_seed: z.number().describe("Seed of the per-round shuffles"),
  debate_participants: z.array(record("A participant: key, display name, model")).describe("The debaters of this run, in roster order"),
  debate_topic: z.string().nullable().describe("The debate topic (the message without its command)"),
  debate_current_round: z.number().nullable().describe("Round in progress: 1–3 spoken, 4 the vote"),
  debate_round_order: z.record(z.string(), z.array(z.string())).describe("Speaking order (participant keys) of each spoken round"),
  debate_turn_index: z.number().describe("Index into the current round's order of the next speaker"),
  debate_round_responses: z.record(z.string(), z.record(z.string(), z.string())).describe("Answers per round, by display name, in speaking order"),
  debate_turns: z
    .array(record("A turn: round, position, participant, status, word count, latency"))
    .describe("Every turn of rounds 1–3, including failed ones"),
  debate_votes: z.array(record("A ballot: voter, voted_for, motivation, bullets, valid")).describe("Ballots of the vote round"),
  debate_word_counts: z.record(z.string(), z.number()).describe("Words spoken per participant over all rounds (the tiebreak)"),
  debate_status: z.enum(DEBATE_STATUSES).nullable().describe("initializing → round_1 → … → complete (or error)"),
  debate_context_chars: z.number().describe("Characters of another participant's answer a speaker or voter is shown"),
  debate_word_limits: z.array(z.number()).describe("Word limit of each spoken round"),
  debate_voice_paced: z.boolean().describe("/dvoice paced: each speaker's text waits for the previous speaker's audio"),
  debate_vote_deadline: z.number().nullable().describe("Epoch ms by which the whole vote round must have finished"),
  debate_results: record("Computed vote results and the convergence analysis").nullable(),
  debate_synthesis: z.string().nullable().describe("The final synthesis (markdown, beginning with the debate-arena-data block)"),
  debate_error: z.string().nullable().describe("Why a debate stopped early, if it did"),
} satisfies { [K in keyof State]-?: z.ZodType });
