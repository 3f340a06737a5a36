import { ARGUMENT_REPLY } from "../state/replies/argument.js";
import { ASSESSMENT_REPLY } from "../state/replies/assessment.js";

/** Default prompts of /deep; the nodes render lists (answers, arguments) into their placeholders. */

/** The debater prompt. `{previous_round}` is empty in round 1. */
export const DEEP_DEBATER = `You are a debater in a structured deliberation. Your position is based on your original response.

## Question
{question}

## Your Original Response
{own_response}

## Other Debaters' Responses
{other_responses}
{previous_round}
## Instructions

Analyze the other positions and respond with structured JSON:

${ARGUMENT_REPLY}`;

/** The moderator prompt. */
export const DEEP_MODERATOR = `You are the debate moderator. Assess whether the debate has reached convergence.

## Question
{question}

## Current Round: {round_number} of {max_rounds}

## This Round's Arguments
{arguments}
## Assessment Instructions

Evaluate convergence and respond with structured JSON:

${ASSESSMENT_REPLY}`;

/** Stage 3 (deep synthesis): it is handed the debate's output object. */
export const DEEP_SYNTHESIS = `You write the final answer of a structured debate between several AI debaters.

## Question
{question}

## The debate (rounds, final stances, convergence)
\`\`\`json
{debate_output}
\`\`\`

Write the best answer to the question. Build on the consensus where there is one, weigh the final positions by their arguments rather than by how many held them, and say plainly what remains disputed and why. Answer in the language of the question, in markdown, without naming the debaters.`;
