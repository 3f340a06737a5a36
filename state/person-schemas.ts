import { z } from "zod";
import { MAX_MOTIVATION_CHARS, type PersonInput } from "./person.js";
import { CONTROL_CHARS, removeSpoofing } from "./text.js";

/** The request schemas of a debate the person joins (`--with-me`): their name, and their input. */

/** A person's chosen name: 1–40 characters, no control characters, not only spaces. */
export const personNameSchema = z
  .string({ error: "the name you join under must be a string" })
  .max(40, "the name you join under is longer than 40 characters")
  .refine((n) => !CONTROL_CHARS.test(n), "the name you join under contains control characters")
  .transform((n) => removeSpoofing(n).trim())
  .refine((n) => n !== "", "the name you join under is empty");

/** The body of `POST /api/v1/debates/:id/input`: the person's turn, their vote, or a pass. */
export const personInputSchema: z.ZodType<PersonInput> = z.union(
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

