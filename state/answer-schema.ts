import { z } from "zod";
import { ENDINGS } from "./answer.js";

/** An answer's source as events and stored rows carry it (see `Source`). */
export const SourceSchema = z.object({ url: z.string(), title: z.string().optional() }).strict();

/** The fields an answer's end event adds for its notes (see `AnswerNotes`). */
export const AnswerNotesShape = {
  /** What the model reasoned before it answered (its thinking), kept apart from the answer. */
  reasoning: z.string().optional(),
  /** The sources it gave, numbered in order from 1: `[n]` in its text is `sources[n-1]`. */
  sources: z.array(SourceSchema).optional(),
  /** How it ended, when that was not a whole answer. */
  ending: z.enum(ENDINGS).optional(),
};
