/** Default prompts of /vote and of what the seed formats share (seed 001 §B, verbatim where it gives them). */

/** Stage 1 of the seed formats: the seeds send the plain question; this only adds the date and language. */
export const DELIBERATION_ANSWER_SYSTEM = `Answer the user's question as well as you can: accurate, complete, clear and practical. Today's date: {date}.
Answer in the language of the question.`;

/** The voting instructions seeds 000 and 001 end their voting prompts with (verbatim). */
export const VOTE_INSTRUCTIONS = `Consider: accuracy, completeness, clarity, helpfulness, and practical value.

You MUST end your response with your vote in this exact format:
VOTE: Response X

where X is the letter of your chosen response. You may provide brief reasoning before the vote, but the last line MUST be your vote.`;

/** Seed 001 buildVotePrompt. */
export const VOTE_BALLOT = `You are voting for the single best response to a question. Read all responses carefully, then cast exactly ONE vote.

Question: {question}

{responses}
${VOTE_INSTRUCTIONS}`;

/** Seed 001 buildTiebreakerPrompt. */
export const VOTE_TIEBREAKER = `There is a tie in the voting. The following responses received equal votes:

{responses}
Original question: {question}

Choose the single best response. Reply with ONLY:
VOTE: Response X`;

/** Seeds 000/001 buildTitlePrompt (plus: in the question's language). */
export const DELIBERATION_TITLE = `Generate a brief title (3-5 words) for a conversation that starts with this question:

"{question}"

Reply with ONLY the title, in the language of the question. No quotes, no punctuation, no explanation.`;
