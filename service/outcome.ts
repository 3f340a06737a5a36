import { z } from "zod";
import type { ClientEvent } from "../state/events.js";
import { UsageReportSchema } from "../state/usage.js";

/**
 * What a run came to, for programs: its ids, how it ended and its verdict (the winner and the
 * votes of /debatt, /vote and /revise; /council's consensus; /deep's rounds). The MCP tools return
 * it as their structured content, with what the run cost.
 */
export const RunOutcomeSchema = z.object({
  run_id: z.string(),
  conversation_id: z.string(),
  /** How the run ended: its result is in, it failed, or it was stopped. */
  status: z.enum(["complete", "error", "cancelled"]),
  /** Why it did not complete. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** True when the answers were simulated offline (no provider key). */
  simulated: z.boolean(),
  /** The conversation's title, when the format gives one. */
  title: z.string().optional(),
  /** The winner's name (/debatt, /vote, /revise). */
  winner: z.string().optional(),
  /** Valid votes by participant name (/debatt, /vote, /revise). */
  votes: z.record(z.string(), z.number()).optional(),
  /** /council: the consensus verdict, and how many judges gave each verdict. */
  consensus: z.string().optional(),
  verdicts: z.record(z.string(), z.number()).optional(),
  /** /deep: the debate rounds held. */
  rounds: z.number().optional(),
  /** /compare: answers given and failed. */
  answered: z.number().optional(),
  failed: z.number().optional(),
  /** What the run's model calls used and cost: in all, by participant and by stage. */
  usage: UsageReportSchema.extend({ budget_usd: z.number().optional(), simulated: z.boolean() }).optional(),
});
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;

/** Votes by label turned into votes by name, through the label → model map and the participants. */
function votesByName(tallies: Record<string, number>, labelToModel: Record<string, string>, nameOf: Map<string, string>): Record<string, number> {
  const votes: Record<string, number> = {};
  for (const [label, n] of Object.entries(tallies)) {
    const model = labelToModel[label];
    const name = (model && nameOf.get(model)) ?? label;
    votes[name] = (votes[name] ?? 0) + n;
  }
  return votes;
}

/** Reads a run's events, one at a time, into its outcome. */
export function outcomeReader() {
  const o: RunOutcome = { run_id: "", conversation_id: "", status: "complete", simulated: false };
  let nameOf = new Map<string, string>();
  const read = (e: ClientEvent): void => {
    switch (e.event) {
      case "metadata":
        o.run_id = e.data.run_id;
        o.conversation_id = e.data.thread_id;
        break;
      case "debate-init":
      case "compare-start":
        o.simulated = e.data.simulated;
        break;
      case "vote-start":
      case "debate-start":
      case "deep-start":
        if ("participants" in e.data) {
          o.simulated = e.data.simulated;
          nameOf = new Map(e.data.participants.map((p) => [p.model, p.display]));
        }
        break;
      case "council-start":
        o.simulated = e.data.simulated;
        break;
      case "debate-results":
        if (e.data.winner !== null) o.winner = e.data.winner;
        o.votes = { ...(e.data.vote_counts as Record<string, number>) };
        break;
      case "vote-round-complete":
        o.votes = votesByName(e.data.data.tallies, e.data.data.labelToModel, nameOf);
        break;
      case "vote-complete":
        o.votes = votesByName(e.data.data.tallies, e.data.data.revisedLabelToModel, nameOf);
        break;
      case "winner-declared":
        o.winner = e.data.data.winnerDisplay;
        break;
      case "council-consolidation":
        o.consensus = e.data.data.consensus;
        o.verdicts = { ...e.data.data.counts };
        break;
      case "deep-output":
        o.rounds = e.data.data.rounds_completed;
        break;
      case "compare-complete":
        o.answered = e.data.answered;
        o.failed = e.data.failed;
        break;
      case "usage": {
        const { timestamp: _, ...usage } = e.data;
        o.usage = usage;
        break;
      }
      case "title-complete":
        o.title = e.data.data.title;
        break;
      case "error":
        // A replay that could not be complete says nothing of how the run itself went.
        if (e.data.code === "replay_incomplete") break;
        o.status = e.data.code === "cancelled" ? "cancelled" : "error";
        o.error = { code: e.data.code, message: e.data.message };
        break;
    }
  };
  return { read, outcome: (): RunOutcome => o };
}
