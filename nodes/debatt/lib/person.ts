import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../../ports/emit.js";
import type { Ballot, Turn } from "../../../state/debate.js";
import type { Participant } from "../../../state/participants.js";
import { personReplyOf, SKIPPED, type InputRequest, type PersonReply } from "../../../state/person.js";
import { countWords, preview } from "../../../state/text.js";

/**
 * Asks the person for their turn or vote: announces it (`debate_awaiting_input`, with the moment
 * the seat is skipped) and interrupts the graph until the run resumes with their reply. It runs
 * first in its step, so a resumed step repeats nothing but this announcement (which the run
 * service's stream drops: the graph does not stop after it).
 */
export function askPerson(config: LangGraphRunnableConfig, request: InputRequest, timeoutMs: number): PersonReply {
  emit(config, "debate_awaiting_input", { ...request, deadline: Date.now() + timeoutMs });
  return personReplyOf(request, interrupt<InputRequest, unknown>(request));
}

/** The skip of the person's seat, announced: why, and what was skipped. */
function skipped(config: LangGraphRunnableConfig, kind: InputRequest["kind"], round: number, person: Participant, reply: PersonReply): string | undefined {
  if (!("skip" in reply)) return undefined;
  emit(config, "debate_input_skipped", { kind, round, participant: person.display, reason: reply.skip });
  return SKIPPED[reply.skip];
}

/**
 * The person's turn from their reply, announced like a model's (start, the whole text as one
 * delta, end); a skipped turn is announced as skipped and kept as a turn without an answer.
 */
function personTurn(config: LangGraphRunnableConfig, person: Participant, round: number, position: number, reply: PersonReply): { turn: Turn; text: string } {
  const base = { round, position, key: person.key, display: person.display, latency_ms: reply.waited_ms };
  const skip = skipped(config, "turn", round, person, reply);
  if (skip !== undefined) return { turn: { ...base, status: "error", word_count: 0, error: skip }, text: "" };
  const text = "text" in reply ? reply.text : "";
  const who = { model: person.display, model_key: person.key, round };
  emit(config, "debate_participant_start", { ...who, position });
  emit(config, "debate_participant_delta", { ...who, delta: text });
  const word_count = countWords(text);
  emit(config, "debate_participant_end", { ...who, position, word_count, latency_ms: reply.waited_ms, response_preview: preview(text), status: "ok" });
  return { turn: { ...base, status: "ok", word_count }, text };
}

/** Asks the person for their turn in `round` (at `position`, within `wordLimit` words) and tells it: their text, or its skip. */
export function askTurn(
  config: LangGraphRunnableConfig,
  person: Participant,
  round: number,
  position: number,
  wordLimit: number,
  timeoutMs: number,
): { turn: Turn; text: string } {
  return personTurn(
    config,
    person,
    round,
    position,
    askPerson(config, { kind: "turn", round, participant: person.display, position, word_limit: wordLimit }, timeoutMs),
  );
}

/** The person's ballot from their reply: their choice and motivation (announced), or a skipped, invalid ballot. */
export function personBallot(config: LangGraphRunnableConfig, person: Participant, reply: PersonReply): Ballot {
  const base = { voter: person.display, voter_key: person.key, bullets: [] as string[] };
  const skip = skipped(config, "vote", 4, person, reply);
  if (skip !== undefined || !("vote" in reply)) return { ...base, voted_for: null, motivation: "", valid: false, invalid_reason: skip ?? "no vote" };
  emit(config, "debate_vote_result", { voter: person.display, voted_for: reply.vote, motivation: reply.motivation, bullets: [] });
  return { ...base, voted_for: reply.vote, motivation: reply.motivation, valid: true };
}
