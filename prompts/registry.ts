import { FORMAT_PROMPTS } from "./by-format.gen.js";
import { opt, P, req, type PromptDefinition } from "./definition.js";
import * as O from "./openai.js";
import * as V from "./vote.js";

export { type Placeholder, type PromptDefinition } from "./definition.js";

/** Each format's prompts, by the format's id: `prompts/<format>.ts`, listed by scripts/format-tables.ts from `FORMATS` (/dvoice speaks /debatt's debate: it has none of its own). */
export { FORMAT_PROMPTS };

/** The prompts the deliberation formats share (a first answer, a follow-up to one participant, the title), and the OpenAI-compatible API's. */
const SHARED_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "deliberation.answer.system",
    description: "The deliberation formats: system prompt of each model's first answer (and, before their instruction, of /moa's later layers and aggregator)",
    placeholders: [P.date()],
    default: V.DELIBERATION_ANSWER_SYSTEM,
  },
  {
    key: "deliberation.continue.system",
    description: "Any format: system prompt of a follow-up to one participant of a finished run, which goes on from what it said there",
    placeholders: [P.participant(true), opt("format", "the run's format, e.g. /vote"), P.date()],
    default: V.DELIBERATION_CONTINUE_SYSTEM,
  },
  {
    key: "deliberation.title",
    description: "The deliberation formats: the conversation title (3–5 words) from the first question",
    placeholders: [P.question()],
    default: V.DELIBERATION_TITLE,
  },
  {
    key: "run.material",
    description:
      "Any format: the question as every participant reads it when material came with it (a client's retrieved text, files), each source numbered and named",
    placeholders: [req("question", "the question as the person typed it"), req("material", "the material's sources, each numbered and named")],
    default: O.WITH_MATERIAL,
  },
  {
    key: "openai.json_result",
    description: "The OpenAI-compatible API: a run's answer written as the JSON its client asked for (`response_format`)",
    placeholders: [
      req("answer", "the run's answer, as the person would read it"),
      req("schema", "the JSON Schema asked for (an object of any keys for json_object)"),
    ],
    default: O.JSON_RESULT,
  },
];

/** Every registered prompt: each format's, in the formats' order, then the shared ones. */
export const PROMPTS: readonly PromptDefinition[] = [...Object.values(FORMAT_PROMPTS).flat(), ...SHARED_PROMPTS];

const BY_KEY = new Map(PROMPTS.map((p) => [p.key, p]));

/** The definition of a key, or undefined for an unknown key. */
export function promptDefinition(key: string): PromptDefinition | undefined {
  return BY_KEY.get(key);
}

/** The round prompt key of a participant's turn (rounds 1–4; OneSeek has its own). */
export function roundPromptKey(round: number, oneseek: boolean): string {
  if (oneseek) return `debate.oneseek.round.${round}`;
  return ["", "debate.round.1.introduction", "debate.round.2.argument", "debate.round.3.deepening", "debate.round.4.voting"][round];
}
