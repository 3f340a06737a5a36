import { z } from "zod";
import { LabelMapSchema, WhoSchema } from "../deliberation.js";
import { DebateVoteResultSchema, RevisionResponseSchema, RevisionSummarySchema } from "../revise.js";
import { DELIBERATION_EVENTS, LABELLED_VOTE_EVENTS, Stage1CompleteSchema, stamp, started } from "./shared.js";

/** The events of /revise: the first answers, the revisions, the vote on the revised answers, the winner. */
export const REVISE_EVENTS = {
  ...DELIBERATION_EVENTS,
  ...LABELLED_VOTE_EVENTS,
  /** /revise: the run begins (`question`, `participants`, `antiAnchoring`, `simulated` added). */
  debate_start: z.object({
    ...started,
    mode: z.literal("debate"),
    question: z.string(),
    participants: z.array(WhoSchema),
    antiAnchoring: z.boolean(),
    simulated: z.boolean(),
    ...stamp,
  }),
  round1_start: z.object({ ...stamp }),
  /** /revise: the first answers (`failed` added). */
  round1_complete: Stage1CompleteSchema,
  revision_start: z.object({ data: z.object({ labelMap: LabelMapSchema }), ...stamp }),
  revision_complete: z.object({
    data: z.object({ revisions: z.array(RevisionResponseSchema.strict()), summary: RevisionSummarySchema.strict() }),
    ...stamp,
  }),
  /** /revise: the counted vote on the revised answers (`anonymityFlagged` added). */
  vote_complete: z.object({ data: DebateVoteResultSchema, ...stamp }),
} as const;
