import type { Ballot, Candidate, VotingFormat } from "../state/ballots.js";
import { leaderboardOf, type LeaderboardReport } from "../state/leaderboard.js";
import { countWords } from "../state/text.js";
import { participantKeyOf } from "./rows.js";
import type { HistoryStore, RunStage, StageRow } from "./store.js";

/**
 * The votes of a user's history, read back from the stored stages (history/rows.ts writes them):
 * - /vote: `vote_panel`, `label_map` (label → model, in the order shown), `collect` (the answers), `vote`;
 * - /revise: `debate_panel`, `revised_label_map`, `revision` (the answers voted on), `debate_vote`;
 * - /debatt and /dvoice: `debatt_participants`, `debatt_answer` (every turn), `debatt_vote`.
 * /council's judges give verdicts on one answer rather than choosing between models, and /deep and
 * /compare do not vote: they give no ballots.
 */
export const BALLOT_STAGES = ["vote_panel", "label_map", "collect", "vote", "debate_panel", "revised_label_map", "revision", "debate_vote", "debatt_participants", "debatt_answer", "debatt_vote"] as const;

type Data = Record<string, unknown>;
const dataOf = (row: StageRow | undefined): Data => (row?.parsedData && typeof row.parsedData === "object" ? (row.parsedData as Data) : {});

/** A labelled format's ballots (/vote, /revise): the labels in the order shown, each voter's label. */
function labelledBallots(format: "vote" | "revise", rows: RunStage[], stages: { labels: string; answers: string; votes: string }, simulated: boolean): Ballot[] {
  const labels = dataOf(rows.find((r) => r.stageType === stages.labels)) as Record<string, string>;
  const words = new Map(rows.filter((r) => r.stageType === stages.answers && r.model).map((r) => [r.model!, countWords(r.content)]));
  // "Response A", "Response B"…: the order the voters read them in.
  const candidates: Candidate[] = Object.keys(labels)
    .sort()
    .map((label, position) => ({ model: labels[label], position, words: words.get(labels[label]) ?? 0 }));
  return rows
    .filter((r) => r.stageType === stages.votes && r.model)
    .flatMap((r) => {
      const vote = dataOf(r);
      const chosen = typeof vote.votedFor === "string" ? labels[vote.votedFor] : undefined;
      if (!chosen) return [];
      const breach = Array.isArray(vote.anonymityBreach) && vote.anonymityBreach.length > 0;
      return [{ format, runId: r.messageId, at: r.runAt.toISOString(), voter: r.model!, chosen, candidates, namesKnown: breach, simulated }];
    });
}

/** /debatt's and /dvoice's valid votes: every other participant that spoke is a candidate, in its place in the last round. */
function debattBallots(rows: RunStage[], panel: Data, simulated: boolean): Ballot[] {
  const participants = (Array.isArray(panel.participants) ? panel.participants : []) as { key: string; display: string; model: string }[];
  const turns = rows.filter((r) => r.stageType === "debatt_answer").map(dataOf);
  const spoke = (key: string) => turns.filter((t) => t.modelKey === key && t.status === "ok");
  const candidateOf = (p: (typeof participants)[number]): Candidate => {
    const own = spoke(p.key);
    const last = own.reduce((a, t) => (Number(t.round) > Number(a.round) ? t : a), own[0]);
    return { model: p.model, position: Number(last.position), words: own.reduce((a, t) => a + Number(t.wordCount ?? 0), 0) };
  };
  const format: VotingFormat = panel.voiceMode === true ? "dvoice" : "debatt";
  return rows
    .filter((r) => r.stageType === "debatt_vote")
    .flatMap((r) => {
      const vote = dataOf(r);
      const key = participantKeyOf(r);
      const voter = participants.find((p) => p.key === key);
      const chosen = participants.find((p) => p.display === vote.votedFor);
      if (vote.valid !== true || !voter || !chosen) return [];
      const candidates = participants.filter((p) => p.key !== voter.key && spoke(p.key).length > 0).map(candidateOf);
      return [{ format, runId: r.messageId, at: r.runAt.toISOString(), voter: voter.model, chosen: chosen.model, candidates, namesKnown: true, simulated }];
    });
}

/** The ballots of one run's stage rows. */
export function ballotsOfRun(rows: RunStage[]): Ballot[] {
  const panel = rows.find((r) => ["vote_panel", "debate_panel", "debatt_participants"].includes(r.stageType));
  const simulated = dataOf(panel).simulated === true;
  switch (panel?.stageType) {
    case "vote_panel":
      return labelledBallots("vote", rows, { labels: "label_map", answers: "collect", votes: "vote" }, simulated);
    case "debate_panel":
      return labelledBallots("revise", rows, { labels: "revised_label_map", answers: "revision", votes: "debate_vote" }, simulated);
    case "debatt_participants":
      return debattBallots(rows, dataOf(panel), simulated);
    default:
      return [];
  }
}

/** Every ballot of the runs of `owners` since `since`, in the order the runs started. */
export async function loadBallots(store: HistoryStore, owners: readonly string[], since?: Date): Promise<Ballot[]> {
  const runs = new Map<string, RunStage[]>();
  for (const row of await store.stagesOfRuns(owners, BALLOT_STAGES, since)) {
    const run = runs.get(row.messageId);
    if (run) run.push(row);
    else runs.set(row.messageId, [row]);
  }
  return [...runs.values()].flatMap(ballotsOfRun);
}

/** The leaderboard of `owners`' history, of one voting format (or all) since a date (or ever). */
export async function loadLeaderboard(store: HistoryStore, owners: readonly string[], filters: { format?: VotingFormat; since?: Date }): Promise<LeaderboardReport> {
  const ballots = (await loadBallots(store, owners, filters.since)).filter((b) => !filters.format || b.format === filters.format);
  return leaderboardOf(ballots, { format: filters.format ?? null, since: filters.since?.toISOString() ?? null });
}
