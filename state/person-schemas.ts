import { z } from "zod";
import { MAX_MOTIVATION_CHARS, type PersonInput } from "./person.js";
import { removeSpoofing } from "./text.js";

/** What a name may not hold: any control character, a line break or a tab included. */
const NAME_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

/** The request schemas of a debate the person joins (`--with-me`): their name, and their input. */

/** A person's chosen name: 1–40 characters of well-formed Unicode, on one line, without control characters, not only spaces. */
export const personNameSchema = z
  .string({ error: "the name you join under must be a string" })
  .max(40, "the name you join under is longer than 40 characters")
  .refine((n) => n.isWellFormed(), "the name you join under is not valid Unicode (it contains a lone surrogate)")
  .refine((n) => !NAME_CONTROLS.test(n), "the name you join under contains control characters or a line break")
  .transform((n) => removeSpoofing(n).trim())
  .refine((n) => n !== "", "the name you join under is empty");

/** The round an input answers (optional; a client that sends it is never taken for an answer to a later question). */
const round = z.number({ error: "round must be a number" }).int("round must be a whole number").min(1).max(4).optional();

/** The body of `POST /api/v1/debates/:id/input`: the person's turn, their vote, or a pass. */
export const personInputSchema: z.ZodType<PersonInput> = z.union(
  [
    z.object({ text: z.string({ error: "text must be a string" }).max(20_000, "text is longer than 20000 characters"), round }).strict(),
    z
      .object({
        vote: z.string({ error: "vote must be a participant's name" }).max(64),
        motivation: z
          .string({ error: "motivation must be a string" })
          .max(MAX_MOTIVATION_CHARS, `motivation is longer than ${MAX_MOTIVATION_CHARS} characters`)
          .optional(),
        round,
      })
      .strict(),
    z.object({ skip: z.literal(true, { error: "skip must be true" }), round }).strict(),
  ],
  {
    error:
      'the body must be {"text": "…"} for a turn, {"vote": "<name>", "motivation"?: "…"} for a vote, or {"skip": true} to pass, each with the "round" it answers if you like',
  },
);
