import { VOTE_INSTRUCTIONS } from "./vote.js";
import { REVISION_REPLY, REVISION_REPLY_CITING } from "../state/replies/revision.js";
import { P, type PromptDefinition } from "./definition.js";

/** Default prompts of /revise, with the anti-anchoring protocol as an option. */

/** The revision prompt: unique per model (its own answer, the others anonymised). */
export const REVISE_REVISION = `You previously answered a question. Now you will see how other respondents answered the same question (anonymously). You may revise your response or stand by your original if you believe it was superior.

ORIGINAL QUESTION:
{question}

YOUR ORIGINAL RESPONSE:
{own_response}

OTHER RESPONSES:
{other_responses}
Instructions:
1. Carefully consider the other responses. What insights do they offer that yours missed?
2. Identify any errors or omissions in your original response.
3. You have three options:
   a) REVISE: Produce an improved response incorporating insights from others
   b) STAND: Keep your original response unchanged (explain why)
   c) MERGE: Substantially rewrite by combining the best elements of all responses

State your choice, then provide the response:

${REVISION_REPLY}`;

/** Anti-anchoring, first turn (step 1 of the protocol): restate your own position before seeing any other. */
export const REVISE_RESTATE = `You previously answered a question. Before you see how others answered it, RESTATE your position.

ORIGINAL QUESTION:
{question}

YOUR ORIGINAL RESPONSE:
{own_response}

In 2-3 sentences, summarise your answer and the key evidence that led to it. Reply with the restatement only.`;

/** Anti-anchoring, second turn (steps 2–3 of the protocol): the others' answers and the evidence bar for changing. */
export const REVISE_REVISION_ANTI_ANCHORING = `Now review how other respondents answered the same question (anonymously).

OTHER RESPONSES:
{other_responses}
Instructions:
1. Keep the position you just restated in mind. What do the other responses offer that yours missed?
2. Evidence bar for changing your answer: you may REVISE or MERGE only if you can cite a SPECIFIC fact, error or omission in your original response that another response exposes. "Response B made a good point" is NOT sufficient. "Response B shows that the figure I gave is from the wrong year" IS sufficient. Otherwise STAND.
3. You have three options:
   a) REVISE: Produce an improved response that fixes the specific error or omission
   b) STAND: Keep your original response unchanged (explain why)
   c) MERGE: Substantially rewrite by combining the best elements of all responses, citing what each fixes

State your choice, then provide the response:

${REVISION_REPLY_CITING}`;

/** The vote on the revised answers. */
export const REVISE_BALLOT = `After a round of deliberation, all respondents have finalized their answers. Vote for the single best response.

Question: {question}

{responses}
${VOTE_INSTRUCTIONS}`;

/** The prompts of /revise. */
export const REVISE_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "revise.revision",
    description: "/revise: each model sees its own answer and the others' (anonymised) and decides REVISE, STAND or MERGE",
    placeholders: [P.question(), P.ownResponse, P.otherResponses],
    default: REVISE_REVISION,
  },
  {
    key: "revise.restate",
    description: "/revise with anti-anchoring: first turn, the model restates its own position before seeing the others",
    placeholders: [P.question(), P.ownResponse],
    default: REVISE_RESTATE,
  },
  {
    key: "revise.revision.anti_anchoring",
    description: "/revise with anti-anchoring: second turn, the others' answers and the evidence bar for changing",
    placeholders: [P.otherResponses],
    default: REVISE_REVISION_ANTI_ANCHORING,
  },
  {
    key: "revise.ballot",
    description: "/revise: each model votes for one anonymised revised answer, ending with `VOTE: Response X`",
    placeholders: [P.question(), P.responses],
    default: REVISE_BALLOT,
  },
];
