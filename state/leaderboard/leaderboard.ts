import { VOTING_FORMATS, type Ballot, type VotingFormat } from "./ballots.js";
import { DebattError } from "../errors.js";
import { rateWithIntervals, type Choice } from "./bradley-terry.js";
import { measureBiases, type BiasFinding } from "./vote-biases.js";

/** A model's line on the leaderboard. */
export interface LeaderboardModel {
  model: string;
  /** The name people saw for it in the runs (its participant's display name, `Grok`); null when the history has none. */
  display: string | null;
  /** Its rating on the Elo scale (1000: the prior's reference, a model the votes have not told apart). */
  score: number;
  /** The 95 % bootstrap interval of the rating. */
  low: number;
  high: number;
  /** Ballots it won, and ballots it could have won (the fit's choices). */
  wins: number;
  appearances: number;
}

/** The leaderboard of a user's history: `GET /api/v1/leaderboard`, the page's view and `--leaderboard`. */
export interface LeaderboardReport {
  filters: { format: VotingFormat | null; since: string | null };
  /** Runs and ballots read. */
  runs: number;
  ballots: number;
  /** Ballots the rating was fitted on: a voter's vote for its own answer says nothing of the others, and is left out. */
  choices: number;
  /** Ballots of runs on the offline simulation. */
  simulated_ballots: number;
  models: LeaderboardModel[];
  biases: BiasFinding[];
  method: { model: "luce"; prior: number; resamples: number; seed: number };
}

/** How the rating is fitted: one virtual drawn game per model against the average, 200 resamples, seed 1. */
const LEADERBOARD_METHOD = { model: "luce", prior: 1, resamples: 200, seed: 1 } as const;

/**
 * The choices a ballot gives the rating: the chosen answer over the others it could choose, the
 * voter's own answer left out. A vote for its own answer, or a ballot with one answer left, gives none.
 */
export function choiceOf(b: Ballot): Choice | undefined {
  if (b.chosen === b.voter) return undefined;
  const set = [...new Set(b.candidates.map((c) => c.model).filter((m) => m !== b.voter))];
  return set.length >= 2 && set.includes(b.chosen) ? { set, winner: b.chosen } : undefined;
}

/** The leaderboard of `ballots` (already filtered to `filters`), each model named by `names` (model id → display name). */
export function leaderboardOf(
  ballots: readonly Ballot[],
  filters: LeaderboardReport["filters"],
  names: ReadonlyMap<string, string> = new Map(),
): LeaderboardReport {
  const choices = ballots.map(choiceOf).filter((c): c is Choice => c !== undefined);
  const ratings = rateWithIntervals(choices, LEADERBOARD_METHOD);
  const tally = (model: string) => ({
    wins: choices.filter((c) => c.winner === model).length,
    appearances: choices.filter((c) => c.set.includes(model)).length,
  });
  return {
    filters,
    runs: new Set(ballots.map((b) => b.runId)).size,
    ballots: ballots.length,
    choices: choices.length,
    simulated_ballots: ballots.filter((b) => b.simulated).length,
    models: ratings.map(({ model, ...rating }) => ({ model, display: names.get(model) ?? null, ...rating, ...tally(model) })),
    biases: measureBiases(ballots, LEADERBOARD_METHOD.seed),
    method: { ...LEADERBOARD_METHOD },
  };
}

/**
 * What the page and the terminal call each model of a leaderboard: its display name, with its
 * model id beside it where two models share the name (a roster that gave the name to another
 * model since) or the model id alone where the history has no name.
 */
export function modelNames(models: readonly Pick<LeaderboardModel, "model" | "display">[]): Map<string, string> {
  const shared = (display: string) => models.filter((m) => m.display === display).length > 1;
  return new Map(models.map((m) => [m.model, m.display === null ? m.model : shared(m.display) ? `${m.display} (${m.model})` : m.display]));
}

/**
 * The leaderboard's filters as a person or a query gives them: `format` one of the formats that
 * vote, `since` a date (or a date and time, ISO 8601). Throws `invalid_format` or `invalid_since`
 * naming what is wrong.
 */
export function leaderboardFilters(format: unknown, since: unknown): { format?: VotingFormat; since?: Date } {
  // An empty value (`?format=&since=`) is no filter.
  const given = (v: unknown) => (v === "" ? undefined : v);
  const f = given(format);
  if (f !== undefined && (typeof f !== "string" || !(VOTING_FORMATS as readonly string[]).includes(f))) {
    throw new DebattError("invalid_format", `format must be one of ${VOTING_FORMATS.join(", ")} (the formats that vote)`);
  }
  const s = given(since);
  return { format: f as VotingFormat | undefined, since: s === undefined ? undefined : dateOf(s) };
}

/** A date (`2026-11-01`) or a date and time (ISO 8601) from 1970 to 9999 that exists; `invalid_since` otherwise. */
function dateOf(value: unknown): Date {
  const m = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(value) : null;
  const at = m ? new Date(value as string) : undefined;
  // The calendar date as written must be the one read (JavaScript reads 2026-02-30 as 2 March).
  const calendar = m && new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const real = calendar && calendar.getUTCFullYear() === Number(m[1]) && calendar.getUTCMonth() === Number(m[2]) - 1 && calendar.getUTCDate() === Number(m[3]);
  if (!at || !real || Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9999) {
    throw new DebattError("invalid_since", "since must be a date from 1970 to 9999, e.g. 2026-11-01 (or a date and time, ISO 8601)");
  }
  return at;
}
