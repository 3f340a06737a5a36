import type { Ballot, Candidate, VotingFormat } from "../state/ballots.js";
import { leaderboardOf, type LeaderboardReport } from "../state/leaderboard.js";
import { countWords } from "../state/text.js";
import { participantKeyOf } from "./rows.js";
import { stageData, type HistoryStore, type RunStage } from "./store.js";

/**
 * The votes of a user's history, read back from the stored stages (history/rows.ts writes them):
 * - /vote: `vote_panel`, `label_map` (label → model, in the order shown), `collect` (the answers), `vote`;
 * - /revise: `debate_panel`, `revised_label_map`, `revision` (the answers voted on), `debate_vote`;
 * - /debatt and /dvoice: `debatt_participants`, `debatt_answer` (every turn), `debatt_vote`.
 * /council's judges give verdicts on one answer rather than choosing between models, and /deep and
 * /compare do not vote: they give no ballots.
 */
const BALLOT_STAGES = ["vote_panel", "label_map", "collect", "vote", "debate_panel", "revised_label_map", "revision", "debate_vote", "debatt_participants", "debatt_answer", "debatt_vote"] as const;

type Data = Record<string, unknown>;

/**
 * A labelled format's ballots (/vote, /revise): the labels in the order shown, each voter's label.
 * An answer's length is what the voters read (a /revise answer's revised text, as its row counted
 * it). A model that gave two answers (listed twice) has them told apart by label only: their
 * lengths are unknown.
 */
function labelledBallots(format: "vote" | "revise", rows: RunStage[], stages: { labels: string; answers: string; votes: string }, simulated: boolean): Ballot[] {
  const labels = stageData(rows.find((r) => r.stageType === stages.labels)) as Record<string, string>;
  const answers = rows.filter((r) => r.stageType === stages.answers && r.model);
  const wordsOf = (model: string): number | null => {
    const mine = answers.filter((r) => r.model === model);
    if (mine.length !== 1) return null;
    const counted = stageData(mine[0]).revisedWordCount;
    return typeof counted === "number" ? counted : countWords(mine[0].content);
  };
  // "Response A", "Response B"…: the order the voters read them in.
  const shown = Object.keys(labels).sort();
  const candidates: Candidate[] = shown.map((label, position) => ({ model: labels[label], position, words: wordsOf(labels[label]) }));
  return rows
    .filter((r) => r.stageType === stages.votes && r.model)
    .flatMap((r) => {
      const vote = stageData(r);
      const position = typeof vote.votedFor === "string" ? shown.indexOf(vote.votedFor) : -1;
      if (position < 0) return [];
      const breach = Array.isArray(vote.anonymityBreach) && vote.anonymityBreach.length > 0;
      return [{ format, runId: r.messageId, at: r.runAt.toISOString(), voter: r.model!, chosen: candidates[position].model, chosenPosition: position, candidates, namesKnown: breach, simulated }];
    });
}

/**
 * /debatt's and /dvoice's valid votes: every other participant that spoke is a candidate. Their
 * order is the speaking order of the last round each spoke in (the last round, unless a turn
 * failed), which is what the voters heard last. A person who joined the debate is no model: the
 * board leaves out their vote, a vote for them, and them as a candidate.
 */
function debattBallots(rows: RunStage[], panel: Data, simulated: boolean): Ballot[] {
  const seated = (Array.isArray(panel.participants) ? panel.participants : []) as { key: string; display: string; model: string; person?: boolean }[];
  const participants = seated.filter((p) => p.person !== true);
  const turns = rows.filter((r) => r.stageType === "debatt_answer").map(stageData);
  const spoke = (key: string) => turns.filter((t) => t.modelKey === key && t.status === "ok");
  // Each speaker's place: by the last round it spoke in, then its place in that round.
  const lastTurn = (key: string) => spoke(key).reduce((a, t) => (Number(t.round) > Number(a.round) ? t : a));
  const speakers = participants
    .filter((p) => spoke(p.key).length > 0)
    .sort((a, b) => Number(lastTurn(a.key).round) - Number(lastTurn(b.key).round) || Number(lastTurn(a.key).position) - Number(lastTurn(b.key).position));
  const place = new Map(speakers.map((p, i) => [p.key, i]));
  const candidateOf = (p: (typeof participants)[number]): Candidate => ({ model: p.model, position: place.get(p.key)!, words: spoke(p.key).reduce((a, t) => a + Number(t.wordCount ?? 0), 0) });
  const format: VotingFormat = panel.voiceMode === true ? "dvoice" : "debatt";
  return rows
    .filter((r) => r.stageType === "debatt_vote")
    .flatMap((r) => {
      const vote = stageData(r);
      const key = participantKeyOf(r);
      const voter = participants.find((p) => p.key === key);
      const chosen = participants.find((p) => p.display === vote.votedFor);
      if (vote.valid !== true || !voter || !chosen || chosen.key === voter.key || !place.has(chosen.key)) return [];
      const candidates = speakers.filter((p) => p.key !== voter.key).map(candidateOf);
      return [{ format, runId: r.messageId, at: r.runAt.toISOString(), voter: voter.model, chosen: chosen.model, chosenPosition: place.get(chosen.key)!, candidates, namesKnown: true, simulated }];
    });
}

/** The ballots of one run's stage rows. */
export function ballotsOfRun(rows: RunStage[]): Ballot[] {
  const panel = rows.find((r) => ["vote_panel", "debate_panel", "debatt_participants"].includes(r.stageType));
  const simulated = stageData(panel).simulated === true;
  switch (panel?.stageType) {
    case "vote_panel":
      return labelledBallots("vote", rows, { labels: "label_map", answers: "collect", votes: "vote" }, simulated);
    case "debate_panel":
      return labelledBallots("revise", rows, { labels: "revised_label_map", answers: "revision", votes: "debate_vote" }, simulated);
    case "debatt_participants":
      return debattBallots(rows, stageData(panel), simulated);
    default:
      return [];
  }
}

/** Every ballot of the runs of `owners` since `since`, in the order the runs started. */
export async function loadBallots(store: HistoryStore, owners: readonly string[], since?: Date): Promise<Ballot[]> {
  return ballotsOf(await store.stagesOfRuns(owners, BALLOT_STAGES, since));
}

/** The ballots of stage rows of several runs (in run order). */
function ballotsOf(rows: RunStage[]): Ballot[] {
  const runs = new Map<string, RunStage[]>();
  for (const row of rows) {
    const run = runs.get(row.messageId);
    if (run) run.push(row);
    else runs.set(row.messageId, [row]);
  }
  return [...runs.values()].flatMap(ballotsOfRun);
}

/** Reports made, by who asked, what for, and the rows they were made from: the fit and its resamples are the costly part. */
const reports = new Map<string, LeaderboardReport>();
const REPORTS_KEPT = 50;

/**
 * The leaderboard of `owners`' history, of one voting format (or all) since a date (or ever). A
 * report is made again only when the rows it comes from have changed (a run voted since).
 */
export async function loadLeaderboard(store: HistoryStore, owners: readonly string[], filters: { format?: VotingFormat; since?: Date }): Promise<LeaderboardReport> {
  const rows = await store.stagesOfRuns(owners, BALLOT_STAGES, filters.since);
  const key = JSON.stringify([store.where, owners, filters.format ?? null, filters.since?.toISOString() ?? null, rows.length, rows.at(-1)?.id ?? null]);
  const kept = reports.get(key);
  if (kept) return kept;
  const ballots = ballotsOf(rows).filter((b) => !filters.format || b.format === filters.format);
  const report = leaderboardOf(ballots, { format: filters.format ?? null, since: filters.since?.toISOString() ?? null });
  if (reports.size >= REPORTS_KEPT) reports.delete(reports.keys().next().value!);
  reports.set(key, report);
  return report;
}
