import { z } from "zod";
import { DebattError } from "./errors.js";
import type { Participant } from "./participants.js";
import { CONTROL_CHARS, countWords, removeSpoofing } from "./text.js";

/**
 * The person's seat in a debate they join (`/debatt --with-me`): they write their own turns and
 * cast their own vote, and the models see them as one more participant under the name they chose.
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

/** A person's chosen name: 1–40 characters, no control characters, not only spaces. */
export const personNameSchema = z
  .string({ error: "the name you join under must be a string" })
  .max(40, "the name you join under is longer than 40 characters")
  .refine((n) => !CONTROL_CHARS.test(n), "the name you join under contains control characters")
  .transform((n) => removeSpoofing(n).trim())
  .refine((n) => n !== "", "the name you join under is empty");

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
 * payload of `debate-awaiting-input` (with the deadline the server adds) and the value the graph
 * is interrupted with.
 */
export type InputRequest =
  | { kind: "turn"; round: number; participant: string; position: number; word_limit: number }
  | { kind: "vote"; round: 4; participant: string; candidates: string[] };

/** Why the person's seat was skipped: no answer in time, or they passed. */
export type SkipReason = "timeout" | "passed";

/** What the run resumes with: the person's turn, their vote, or a skip; and how long they took. */
export type PersonReply = ({ text: string } | { vote: string; motivation: string } | { skip: SkipReason }) & { waited_ms: number };

/** The body of `POST /api/v1/debates/:id/input`: the person's turn, their vote, or a pass. */
export const personInputSchema = z.union(
  [
    z.object({ text: z.string({ error: "text must be a string" }).max(20_000, "text is longer than 20000 characters") }).strict(),
    z
      .object({
        vote: z.string({ error: "vote must be a participant's name" }).min(1).max(64),
        motivation: z.string({ error: "motivation must be a string" }).max(MAX_MOTIVATION_CHARS, `motivation is longer than ${MAX_MOTIVATION_CHARS} characters`).optional(),
      })
      .strict(),
    z.object({ skip: z.literal(true, { error: "skip must be true" }) }).strict(),
  ],
  { error: 'the body must be {"text": "…"} for a turn, {"vote": "<name>", "motivation"?: "…"} for a vote, or {"skip": true} to pass' },
);
export type PersonInput = z.infer<typeof personInputSchema>;

/**
 * The person's input checked against what the debate waits for: a turn takes text (not empty, no
 * control characters, within the round's word limit), a vote names one of the candidates (any
 * case). Throws `invalid_input` naming the problem.
 */
export function replyTo(request: InputRequest, input: PersonInput, waitedMs: number): PersonReply {
  const refuse = (message: string) => new DebattError("invalid_input", message);
  if ("skip" in input) return { skip: "passed", waited_ms: waitedMs };
  if (request.kind === "turn") {
    if (!("text" in input)) throw refuse(`the debate waits for your turn in round ${request.round}: send {"text": "…"} (or {"skip": true} to pass)`);
    if (CONTROL_CHARS.test(input.text)) throw refuse("text contains control characters");
    const text = removeSpoofing(input.text).trim();
    if (text === "") throw refuse("text is empty: write your turn, or send {\"skip\": true} to pass");
    const words = countWords(text);
    if (words > request.word_limit) throw refuse(`round ${request.round} takes at most ${request.word_limit} words; yours has ${words}`);
    return { text, waited_ms: waitedMs };
  }
  if (!("vote" in input)) throw refuse(`the debate waits for your vote: send {"vote": "<name>"} with one of ${request.candidates.join(", ")} (or {"skip": true} to pass)`);
  const chosen = request.candidates.find((c) => c.toLowerCase() === input.vote.trim().toLowerCase());
  if (!chosen) throw refuse(`"${input.vote.slice(0, 64)}" is not one you can vote for: ${request.candidates.join(", ")}`);
  const motivation = removeSpoofing(input.motivation ?? "").replace(CONTROL_CHARS, " ").trim();
  return { vote: chosen, motivation, waited_ms: waitedMs };
}
