/** Default prompts of /vote and of what the deliberation formats share. */

import { LETTER_VOTE_ONLY_REPLY, LETTER_VOTE_REPLY } from "../state/replies/letter-vote.js";
import { TITLE_REPLY } from "../state/replies/title.js";
import { P, type PromptDefinition } from "./definition.js";

/** Stage 1 of the deliberation formats: models get the plain question; this adds only date and language. */
export const DELIBERATION_ANSWER_SYSTEM = `Answer the user's question as well as you can: accurate, complete, clear and practical. Today's date: {date}.
Answer in the language of the question.`;

/** The voting instructions that end the voting prompts of /vote and /revise. */
export const VOTE_INSTRUCTIONS = `Consider: accuracy, completeness, clarity, helpfulness, and practical value.

${LETTER_VOTE_REPLY}`;

/** The /vote ballot: one vote for the best anonymised answer. */
export const VOTE_BALLOT = `You are voting for the single best response to a question. Read all responses carefully, then cast exactly ONE vote.

Question: {question}

{responses}
${VOTE_INSTRUCTIONS}`;

/** The chairman's tiebreak among the tied answers. */
export const VOTE_TIEBREAKER = `There is a tie in the voting. The following responses received equal votes:

{responses}
Original question: {question}

Choose the single best response. ${LETTER_VOTE_ONLY_REPLY}`;

/** The conversation title (3–5 words), in the question's language. */
export const DELIBERATION_TITLE = `Generate a brief title (3-5 words) for a conversation that starts with this question:

"{question}"

${TITLE_REPLY}`;

/** A follow-up to one participant of a finished run: it goes on from what it said there. */
export const DELIBERATION_CONTINUE_SYSTEM = `You are {participant}. Earlier in this conversation you took part in a {format} about the user's question, with other AI models; what you said there follows, as your own messages. The user now goes on with you alone: answer the follow-up as yourself, building on what you said, and say so when you have changed your mind. Today's date: {date}.
Answer in the language of the question the user asks now.`;

/** The prompts of /vote. */
export const VOTE_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "vote.ballot",
    description: "/vote: each model votes for one anonymised answer, ending with `VOTE: Response X`",
    placeholders: [P.question(), P.responses],
    default: VOTE_BALLOT,
  },
  {
    key: "vote.tiebreaker",
    description: "/vote: the chairman picks one of the tied answers (`VOTE: Response X`)",
    placeholders: [P.question(false), P.responses],
    default: VOTE_TIEBREAKER,
  },
];
