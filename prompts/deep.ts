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

\`\`\`json
{
  "stance": "maintain|concede|partial_concede",
  "key_points": ["<your strongest arguments>"],
  "counterpoints": [
    {"target": "Debater X", "point": "<what they got wrong>", "evidence": "<why>"}
  ],
  "revision": "no_change|minor_update|major_revision",
  "revised_position": "<your updated answer if revision != no_change>",
  "confidence": 0.0-1.0
}
\`\`\``;

/** The moderator prompt. */
export const DEEP_MODERATOR = `You are the debate moderator. Assess whether the debate has reached convergence.

## Question
{question}

## Current Round: {round_number} of {max_rounds}

## This Round's Arguments
{arguments}
## Assessment Instructions

Evaluate convergence and respond with structured JSON:

\`\`\`json
{
  "should_stop": true|false,
  "agreement_score": 0.0-1.0,
  "new_points_ratio": 0.0-1.0,
  "consensus_answer": "<emerging consensus if agreement_score > 0.6, else null>",
  "remaining_disagreements": ["<unresolved points>"],
  "next_round_focus": "<what debaters should address if continuing, else null>"
}
\`\`\``;

/** Stage 3 (deep synthesis): it is handed the debate's output object. */
export const DEEP_SYNTHESIS = `You write the final answer of a structured debate between several AI debaters.

## Question
{question}

## The debate (rounds, final stances, convergence)
\`\`\`json
{debate_output}
\`\`\`

Write the best answer to the question. Build on the consensus where there is one, weigh the final positions by their arguments rather than by how many held them, and say plainly what remains disputed and why. Answer in the language of the question, in markdown, without naming the debaters.`;
