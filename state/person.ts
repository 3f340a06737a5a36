import { DebattError, type ReasonKey } from "./errors.js";
import type { Participant } from "./participants.js";
import { CONTROL_CHARS, countWords, removeSpoofing } from "./text.js";

/**
 * The person's seat in a debate they join (`/debatt --with-me`): they write their own turns and
 * cast their own vote, and the models see them as one more participant under the name they chose.
 * (No zod here: the page imports it; the request schemas are in person-schemas.ts.)
 */

/** The seat's key (`model_key` in events); no roster entry may have it. */
export const PERSON_KEY = "person";
/** The name the models know the person by when they choose none (the same word in English and Swedish). */
export const DEFAULT_PERSON_NAME = "Person";
/** What the seat has instead of a model id: no model is ever asked for it. */
export const PERSON_MODEL = "person";
/** How long a debate waits for the person's turn or vote by default (PERSON_INPUT_TIMEOUT_MS). */
export const DEFAULT_PERSON_TIMEOUT_MS = 300_000;
/** Longest motivation a person may give with their vote. */
export const MAX_MOTIVATION_CHARS = 1_000;

/** Whether a participant is the person's seat. */
export function isPerson(p: Pick<Participant, "person">): boolean {
  return p.person === true;
}

/**
 * The models with the person's seat added last (the speaking orders are shuffled per round).
 * Throws `invalid_person_name` when the name is already a participant's.
 */
export function withPerson(models: Participant[], name: string): Participant[] {
  const taken = models.find((p) => p.display.toLowerCase() === name.toLowerCase());
  if (taken) {
    const names = models.map((p) => p.display).join(", ");
    throw new DebattError("invalid_person_name", `"${name}" is already a participant's name (${names}): choose another name to join the debate`, {
      reason: { key: "personNameTaken", values: { name, names } },
    });
  }
  return [...models, { key: PERSON_KEY, display: name, model: PERSON_MODEL, person: true }];
}

/**
 * What a debate waits for from the person: their turn in a spoken round, or their vote. It is the
 * value the graph is interrupted with, and the payload of `debate-awaiting-input` (with the
 * moment the seat is skipped).
 */
export type InputRequest =
  | { kind: "turn"; round: number; participant: string; position: number; word_limit: number }
  | { kind: "vote"; round: 4; participant: string; candidates: string[] };

/** Why the person's seat was skipped: no answer in time, or they passed. */
export type SkipReason = "timeout" | "passed";

/** What the person sends (`POST /api/v1/debates/:id/input`, checked by person-schemas.ts): their turn, their vote, or a pass. */
export type PersonInput = ({ text: string } | { vote: string; motivation?: string } | { skip: true }) & { round?: number };

/** How a skipped turn or vote of the person is kept (a turn's `error`, a ballot's `invalid_reason`). */
export const SKIPPED: Record<SkipReason, string> = { timeout: "skipped: no answer in time", passed: "skipped: passed" };

/** Why a kept turn of the person was skipped, from its `error`; undefined for any other turn. */
export function skipReasonOf(error: string | undefined): SkipReason | undefined {
  return (Object.keys(SKIPPED) as SkipReason[]).find((r) => SKIPPED[r] === error);
}

/** What the run resumes with: the person's turn, their vote, or a skip; and how long they took. */
export type PersonReply = ({ text: string } | { vote: string; motivation: string } | { skip: SkipReason }) & { waited_ms: number };

/**
 * The person's input checked against what the debate waits for: a turn takes text (not empty, no
 * control characters, within the round's word limit), a vote names one of the candidates (any
 * case). Throws `invalid_input` naming the problem.
 */
export function replyTo(request: InputRequest, input: PersonInput, waitedMs: number): PersonReply {
  const refuse = (message: string, key: ReasonKey, values: Record<string, string | number> = {}) =>
    new DebattError("invalid_input", message, { reason: { key, values } });
  // An answer to a question that is over (its time ran out) is not taken for the next one.
  if (input.round !== undefined && input.round !== request.round) {
    throw new DebattError(
      "not_awaiting_input",
      `the answer is for round ${input.round}, but the debate waits for your ${request.kind} in round ${request.round}`,
    );
  }
  if ("skip" in input) return { skip: "passed", waited_ms: waitedMs };
  const candidates = request.kind === "vote" ? request.candidates.join(", ") : "";
  if (request.kind === "turn") {
    if (!("text" in input))
      throw refuse(`the debate waits for your turn in round ${request.round}: send {"text": "…"} (or {"skip": true} to pass)`, "inputWantsText", {
        round: request.round,
      });
    if (!input.text.isWellFormed()) throw refuse("text is not valid Unicode (it contains a lone surrogate)", "invalidUnicode");
    if (CONTROL_CHARS.test(input.text)) throw refuse("text contains control characters", "controlChars");
    const text = removeSpoofing(input.text).trim();
    if (text === "") throw refuse('text is empty: write your turn, or send {"skip": true} to pass', "emptyText");
    const words = countWords(text);
    if (words > request.word_limit)
      throw refuse(`round ${request.round} takes at most ${request.word_limit} words; yours has ${words}`, "overWordLimit", {
        round: request.round,
        limit: request.word_limit,
        words,
      });
    return { text, waited_ms: waitedMs };
  }
  if (!("vote" in input))
    throw refuse(`the debate waits for your vote: send {"vote": "<name>"} with one of ${candidates} (or {"skip": true} to pass)`, "inputWantsVote", {
      candidates,
    });
  if (!input.vote.isWellFormed()) throw refuse("vote is not valid Unicode (it contains a lone surrogate)", "invalidUnicode");
  const chosen = request.candidates.find((c) => c.toLowerCase() === input.vote.trim().toLowerCase());
  const name = input.vote.slice(0, 64);
  if (!chosen) throw refuse(`"${name}" is not one you can vote for: ${candidates}`, "notACandidate", { name, candidates });
  const motivation = removeSpoofing(input.motivation ?? "")
    .replace(new RegExp(CONTROL_CHARS.source, "g"), " ")
    .trim();
  return { vote: chosen, motivation, waited_ms: waitedMs };
}

/**
 * The value a debate waiting for the person resumes with, as their reply: the run service's
 * (already checked), or what a LangGraph client sends (Studio's resume: their text or the name
 * they vote for, or an input object), checked here. Throws `invalid_input` naming the problem.
 */
export function personReplyOf(request: InputRequest, value: unknown): PersonReply {
  if (typeof value === "string") return replyTo(request, request.kind === "turn" ? { text: value } : { vote: value }, 0);
  const v = (value ?? {}) as Partial<Record<"text" | "vote" | "motivation" | "skip" | "waited_ms", unknown>>;
  const waited = typeof v.waited_ms === "number" && v.waited_ms >= 0 ? Math.round(v.waited_ms) : 0;
  if (v.skip === "timeout" || v.skip === "passed") return { skip: v.skip, waited_ms: waited };
  if (v.skip === true) return replyTo(request, { skip: true }, waited);
  if (typeof v.text === "string") return replyTo(request, { text: v.text }, waited);
  if (typeof v.vote === "string") return replyTo(request, { vote: v.vote, ...(typeof v.motivation === "string" ? { motivation: v.motivation } : {}) }, waited);
  throw new DebattError("invalid_input", 'resume with the person\'s text (a turn), the name they vote for, or {"skip": true} to pass');
}
