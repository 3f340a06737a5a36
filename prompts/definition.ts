/** What a registered prompt is, and the placeholders and helpers the formats' prompt lists share. */

/** One placeholder a prompt may use; a required one must appear in every override. */
export interface Placeholder {
  name: string;
  required: boolean;
  description: string;
}

/** A registered prompt: its key, what it is for, its placeholders and its default text. */
export interface PromptDefinition {
  key: string;
  description: string;
  placeholders: Placeholder[];
  default: string;
}

export const req = (name: string, description: string): Placeholder => ({ name, required: true, description });
export const opt = (name: string, description: string): Placeholder => ({ name, required: false, description });

/** The placeholders several prompts use. */
export const P = {
  topic: (r = false) => (r ? req : opt)("topic", "the debate topic"),
  context: req("context", "the context chain: topic, earlier rounds, this round so far"),
  wordLimit: opt("word_limit", "the round's word limit"),
  participant: (r = false) => (r ? req : opt)("participant", "display name of the speaking participant"),
  participants: opt("participants", "display names of all participants"),
  participantCount: opt("participant_count", "number of participants"),
  date: (r = false) => (r ? req : opt)("date", "today's date, ISO 8601"),
  candidates: req("candidates", "display names one may vote for"),
  question: (r = true) => (r ? req : opt)("question", "the user's question"),
  responses: req("responses", "the anonymised answers, each as `--- Response X ---` and its text"),
  ownResponse: req("own_response", "the model's own first answer"),
  otherResponses: req("other_responses", "the other models' answers, anonymised as `--- Response X ---` and the text"),
  debaters: req("other_responses", "the other debaters' answers, each as `### Debater X`, the text and `---`"),
  previousRound: opt("previous_round", "round 2 on: `## Previous Round Arguments` with each debater's last argument (empty in round 1)"),
};

/** A debate round's prompt. */
export const roundPromptDefinition = (key: string, description: string, text: string): PromptDefinition => ({
  key,
  description,
  placeholders: [P.context, P.wordLimit, P.topic(), P.participant()],
  default: text,
});
/** A debate vote's prompt. */
export const votePromptDefinition = (key: string, description: string, text: string): PromptDefinition => ({
  key,
  description,
  placeholders: [P.context, P.candidates, P.participant(), P.topic()],
  default: text,
});

/** The 16 `debate.*` prompt keys of the /debatt family, then those of the other formats. */
