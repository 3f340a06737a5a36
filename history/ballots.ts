import { z } from "zod";
import type { Ballot, Candidate, VotingFormat } from "../state/leaderboard/ballots.js";
import { leaderboardOf, type LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import { countWords } from "../state/text.js";
import type { HistoryFormats } from "./codec.js";
import { stageData, type HistoryStore, type RunStage } from "./store.js";

/**
 * The votes of a user's history, read back from the stored stages by each format's codec (its
 * `ballots`, in history/formats/<format>.ts): /vote's and /revise's labelled votes (below),
 * /debatt's and /dvoice's votes for each other. A format whose judges give verdicts on one answer
 * rather than choose between models (/council), or that does not vote, gives none.
 */

/**
 * A labelled format's ballots (/vote, /revise): the labels in the order shown, each voter's label.
 * An answer's length is what the voters read (a /revise answer's revised text, as its row counted
 * it). A model that gave two answers (listed twice) has them told apart by label only: their
 * lengths are unknown.
 */
export function labelledBallots(
  format: VotingFormat,
  rows: RunStage[],
  stages: { labels: string; answers: string; votes: string },
  simulated: boolean,
): Ballot[] {
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
      return [
        {
          format,
          runId: r.messageId,
          at: r.runAt.toISOString(),
          voter: r.model!,
          chosen: candidates[position].model,
          chosenPosition: position,
          candidates,
          namesKnown: breach,
          simulated,
        },
      ];
    });
}

/**
 * A labelled format's ballots reader for its codec: the stage types they are read from (its panel,
 * its label map, the answers voted on, the votes) and how.
 */
export function labelledBallotReader(format: VotingFormat, stages: { panel: string; labels: string; answers: string; votes: string }) {
  return {
    stageTypes: [stages.panel, stages.labels, stages.answers, stages.votes],
    of: (rows: RunStage[], _panel: Record<string, unknown>, simulated: boolean) => labelledBallots(format, rows, stages, simulated),
  };
}

/** The stage types the ballots are read from: those of every format that gives ballots. */
function ballotStages(formats: HistoryFormats): string[] {
  return [...new Set(Object.values(formats).flatMap((f) => f.ballots?.stageTypes ?? []))];
}

/** The ballots of one run's stage rows, read by the codec of the format whose panel opens them. */
export function ballotsOfRun(formats: HistoryFormats, rows: RunStage[]): Ballot[] {
  for (const codec of Object.values(formats)) {
    if (!codec.ballots) continue;
    const panel = rows.find((r) => r.stageType === codec.stageTypes[0]);
    if (!panel || (codec.ownsPanel && !codec.ownsPanel(stageData(panel)))) continue;
    return codec.ballots.of(rows, stageData(panel), stageData(panel).simulated === true);
  }
  return [];
}

/** A panel's participants as the display names need them: each has a model id and the name people saw. */
const PanelNamesSchema = z.array(z.object({ model: z.string(), display: z.string(), person: z.boolean().optional() })).catch([]);

/**
 * The name people saw for each model id in the runs of `rows`: the `display` of the participants
 * in each run's panel (the roster's name, `Grok` for `x-ai/grok-4`). A later run's name wins (a
 * roster renamed since); a model given twice in one run has both its names (`Grok / Grok 2`). A
 * person's seat is no model and has none.
 */
export function displayNamesOf(formats: HistoryFormats, rows: RunStage[]): Map<string, string> {
  const panelTypes = new Set(Object.values(formats).flatMap((f) => (f.ballots ? [f.stageTypes[0]] : [])));
  const names = new Map<string, string>();
  for (const panel of rows.filter((r) => panelTypes.has(r.stageType))) {
    const seated = PanelNamesSchema.parse(stageData(panel).participants).filter((p) => p.person !== true);
    const ofRun = new Map<string, string[]>();
    for (const p of seated) ofRun.set(p.model, [...new Set([...(ofRun.get(p.model) ?? []), p.display])]);
    for (const [model, displays] of ofRun) names.set(model, displays.join(" / "));
  }
  return names;
}

/** Every ballot of the runs of `owners` since `since`, in the order the runs started. */
export async function loadBallots(store: HistoryStore, owners: readonly string[], since?: Date): Promise<Ballot[]> {
  return ballotsOf(store.formats, await store.stagesOfRuns(owners, ballotStages(store.formats), since));
}

/** The ballots of stage rows of several runs (in run order). */
function ballotsOf(formats: HistoryFormats, rows: RunStage[]): Ballot[] {
  const runs = new Map<string, RunStage[]>();
  for (const row of rows) {
    const run = runs.get(row.messageId);
    if (run) run.push(row);
    else runs.set(row.messageId, [row]);
  }
  return [...runs.values()].flatMap((run) => ballotsOfRun(formats, run));
}

/** Reports made, by who asked, what for, and the rows they were made from: the fit and its resamples are the costly part. */
const reports = new Map<string, LeaderboardReport>();
const REPORTS_KEPT = 50;

/**
 * The leaderboard of `owners`' history, of one voting format (or all) since a date (or ever). A
 * report is made again only when the rows it comes from have changed (a run voted since).
 */
export async function loadLeaderboard(
  store: HistoryStore,
  owners: readonly string[],
  filters: { format?: VotingFormat; since?: Date },
): Promise<LeaderboardReport> {
  const rows = await store.stagesOfRuns(owners, ballotStages(store.formats), filters.since);
  const key = JSON.stringify([store.where, owners, filters.format ?? null, filters.since?.toISOString() ?? null, rows.length, rows.at(-1)?.id ?? null]);
  const kept = reports.get(key);
  if (kept) return kept;
  const ballots = ballotsOf(store.formats, rows).filter((b) => !filters.format || b.format === filters.format);
  const report = leaderboardOf(ballots, { format: filters.format ?? null, since: filters.since?.toISOString() ?? null }, displayNamesOf(store.formats, rows));
  if (reports.size >= REPORTS_KEPT) reports.delete(reports.keys().next().value!);
  reports.set(key, report);
  return report;
}
