import { ARGUMENT_REPLY } from "../state/replies/argument.js";
import { ASSESSMENT_REPLY } from "../state/replies/assessment.js";
import { P, req, type PromptDefinition } from "./definition.js";

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

/** The prompts of /deep. */
export const DEEP_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "deep.debater",
    description: "/deep: a debater's round, answered as JSON (stance, key_points, counterpoints, revision, revised_position, confidence)",
    placeholders: [P.question(), P.ownResponse, P.debaters, P.previousRound],
    default: DEEP_DEBATER,
  },
  {
    key: "deep.moderator",
    description: "/deep: the moderator's JSON assessment of a round (agreement_score, new_points_ratio, …)",
    placeholders: [
      P.question(),
      req("round_number", "the round just argued (1-based)"),
      req("max_rounds", "the most rounds of this debate"),
      req("arguments", "this round's arguments: stance, confidence, revision and key points per debater"),
    ],
    default: DEEP_MODERATOR,
  },
  {
    key: "deep.synthesis",
    description: "/deep: the final answer, written from the debate's output object (its last stage)",
    placeholders: [P.question(), req("debate_output", "the debate's output object as JSON: rounds, final stances, convergence, log")],
    default: DEEP_SYNTHESIS,
  },
];
