import type { PromptDefinition } from "./definition.js";

/** The prompts of /dvoice: none of its own, since it speaks /debatt's debate, whose prompts are in `prompts/debatt.ts`. */
export const DVOICE_PROMPTS: readonly PromptDefinition[] = [];
