import { z } from "zod";
import { TiebreakerResultSchema, VoteRoundResultSchema } from "../vote.js";
import { DELIBERATION_EVENTS, LABELLED_VOTE_EVENTS, STAGE1_EVENTS, stamp } from "./shared.js";

/** The events of /vote: the answers, the vote on them, the chairman's tiebreak, the winner. */
export const VOTE_EVENTS = {
  ...DELIBERATION_EVENTS,
  ...LABELLED_VOTE_EVENTS,
  ...STAGE1_EVENTS,
  vote_round_complete: z.object({ data: VoteRoundResultSchema, ...stamp }),
  tiebreaker_start: z.object({ tiedLabels: z.array(z.string()), ...stamp }),
  tiebreaker_complete: z.object({ data: TiebreakerResultSchema, ...stamp }),
} as const;
