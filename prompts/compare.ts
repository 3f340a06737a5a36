import { P, type PromptDefinition } from "./definition.js";
/** Default prompts of /compare (a comparison and a debate never run together). */

export const COMPARE_ANSWER_SYSTEM = `Du är {participant} och besvarar en fråga bredvid andra AI-modeller; svaren visas sida vid sida så att användaren kan jämföra dem.
Svara självständigt, sakligt och koncist (högst 300 ord), med din egen bedömning och dina viktigaste skäl. Dagens datum: {date}.
Svara på samma språk som frågan.`;

/** The prompts of /compare. */
export const COMPARE_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "compare.answer.system",
    description: "/compare: each model's system prompt; the answers are shown side by side",
    placeholders: [P.participant(true), P.date()],
    default: COMPARE_ANSWER_SYSTEM,
  },
];
