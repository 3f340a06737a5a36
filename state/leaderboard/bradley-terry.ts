import { seededRandom } from "../random.js";

/**
 * Ratings from choices: Luce's choice model, the Bradley-Terry model generalised from pairs to a
 * choice among several. Each model has a strength π; a voter shown the set S picks i with
 * probability π_i / Σ_{j∈S} π_j. With two in the set this is exactly Bradley-Terry.
 */

/** One choice: `winner` was picked out of `set` (which holds it); `count` such choices (1 by default). */
export interface Choice {
  set: readonly string[];
  winner: string;
  count?: number;
}

/** How a fit is made. */
export interface FitOptions {
  /**
   * Virtual games each model plays against a reference of strength 1, winning half of them: a
   * weak pull towards the average that keeps a model that never (or always) won finite. 0 gives
   * the plain maximum-likelihood fit, which exists only when every model both won and lost.
   */
  prior?: number;
  /** Iterations at most (100). */
  maxIterations?: number;
  /** The fit stops when no log-strength moves by more than this (1e-10). */
  tolerance?: number;
  /** Strengths to start from (a previous fit), else 1 each. */
  start?: ReadonlyMap<string, number>;
}

/** Choices with the same set and winner, counted once: the fit's work is per group, not per vote. */
interface Group {
  members: number[];
  winner: number;
}

/** Choices indexed for fitting: the models, the distinct (set, winner) groups, and each choice's group. */
interface Prepared {
  models: string[];
  groups: Group[];
  groupOf: number[];
}

function prepare(choices: readonly Choice[]): Prepared {
  const models = modelsOf(choices);
  const index = new Map(models.map((m, i) => [m, i]));
  const keys = new Map<string, number>();
  const groups: Group[] = [];
  const groupOf = choices.map((c) => {
    const members = [...new Set(c.set)].map((m) => index.get(m)!).sort((x, y) => x - y);
    const winner = index.get(c.winner)!;
    const key = `${members.join(",")}>${winner}`;
    let g = keys.get(key);
    if (g === undefined) {
      keys.set(key, (g = groups.length));
      groups.push({ members, winner });
    }
    return g;
  });
  return { models, groups, groupOf };
}

/** Every model that appears in a choice, sorted. */
function modelsOf(choices: readonly Choice[]): string[] {
  return [...new Set(choices.flatMap((c) => c.set))].sort();
}

/**
 * Fits the strengths by maximum likelihood (with the prior's virtual games), by Newton's method
 * on their logarithms with a halving step, which converges in a few iterations where the classic
 * MM iteration (Hunter 2004) needs thousands once the strengths lie far apart. With a prior the
 * strengths are relative to its reference (strength 1: a model no vote has told apart); without
 * one, scaled to a geometric mean of 1.
 */
export function fitChoices(choices: readonly Choice[], options: FitOptions = {}): Map<string, number> {
  const prepared = prepare(choices);
  const counts = new Array<number>(prepared.groups.length).fill(0);
  choices.forEach((c, n) => (counts[prepared.groupOf[n]] += c.count ?? 1));
  const pi = fitGroups(prepared, counts, options);
  return new Map(prepared.models.map((m, i) => [m, pi[i]]));
}

/** The log-likelihood of log-strengths `theta` over counted groups, the prior's virtual games included. */
function logLikelihood(groups: readonly Group[], counts: readonly number[], theta: readonly number[], prior: number, seen: readonly boolean[]): number {
  let sum = 0;
  groups.forEach((g, k) => {
    if (counts[k] === 0) return;
    let z = 0;
    for (const i of g.members) z += Math.exp(theta[i]);
    sum += counts[k] * (theta[g.winner] - Math.log(z));
  });
  // Against the reference (strength 1, log 0): half won, half lost.
  if (prior > 0) theta.forEach((t, i) => seen[i] && (sum += (prior / 2) * t - prior * Math.log1p(Math.exp(t))));
  return sum;
}

/** Newton's iterations over counted groups; a model in no counted group gets NaN (it was not seen). */
function fitGroups({ models, groups }: Prepared, counts: readonly number[], options: FitOptions): number[] {
  const prior = options.prior ?? 1;
  const n = models.length;
  // With a prior every model has an estimate (a model without votes: the reference's strength).
  // Without one, a model in no counted choice has none.
  const seen = new Array<boolean>(n).fill(prior > 0);
  groups.forEach((g, k) => counts[k] > 0 && g.members.forEach((i) => (seen[i] = true)));
  let theta = models.map((m, i) => (seen[i] ? Math.log(options.start?.get(m) ?? 1) : 0));
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  let current = logLikelihood(groups, counts, theta, prior, seen);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    // The gradient g and the negated Hessian A of the log-likelihood.
    const g = new Array<number>(n).fill(0);
    const A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    groups.forEach((grp, k) => {
      const c = counts[k];
      if (c === 0) return;
      let z = 0;
      for (const i of grp.members) z += Math.exp(theta[i]);
      g[grp.winner] += c;
      for (const i of grp.members) {
        const pi = Math.exp(theta[i]) / z;
        g[i] -= c * pi;
        A[i][i] += c * pi;
        for (const j of grp.members) A[i][j] -= (c * pi * Math.exp(theta[j])) / z;
      }
    });
    for (let i = 0; i < n; i++) {
      if (!seen[i]) {
        A[i][i] = 1;
        continue;
      }
      if (prior > 0) {
        const s = 1 / (1 + Math.exp(-theta[i]));
        g[i] += prior / 2 - prior * s;
        A[i][i] += prior * s * (1 - s);
      } else {
        // Without a reference only differences are fixed: this pins their mean and leaves the step otherwise as it was.
        for (let j = 0; j < n; j++) if (seen[j]) A[i][j] += 1 / n;
      }
    }
    const step = solve(A, g);
    let t = 1;
    let next = theta.map((x, i) => x + t * step[i]);
    let value = logLikelihood(groups, counts, next, prior, seen);
    // Halved until the likelihood does not fall (a NaN, from a step too far, counts as falling).
    while (!(value >= current) && t > 1e-6) {
      t /= 2;
      next = theta.map((x, i) => x + t * step[i]);
      value = logLikelihood(groups, counts, next, prior, seen);
    }
    if (!(value >= current)) break;
    const moved = Math.max(0, ...step.map((d) => Math.abs(t * d)));
    theta = next;
    current = value;
    if (moved < tolerance) break;
  }
  // With a prior the reference (strength 1) fixes the scale, and every fit, a resample's too, is on
  // it; without one only ratios are fixed, and the geometric mean is set to 1.
  const pi = theta.map((t) => Math.exp(t));
  return (prior > 0 ? pi : scaled(pi, seen)).map((p, i) => (seen[i] ? p : Number.NaN));
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small: one row per model). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const m = A.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    const d = m[col][col] || 1e-300;
    for (let r = col + 1; r < n; r++) {
      const f = m[r][col] / d;
      if (f !== 0) for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r][n];
    for (let c = r + 1; c < n; c++) sum -= m[r][c] * x[c];
    x[r] = sum / (m[r][r] || 1e-300);
  }
  return x;
}

/** Strengths divided by the geometric mean of the seen ones (zeros left out of the mean). */
function scaled(pi: number[], seen: readonly boolean[]): number[] {
  const positive = pi.filter((p, i) => seen[i] && p > 0);
  if (positive.length === 0) return pi;
  const mean = Math.exp(positive.reduce((a, p) => a + Math.log(p), 0) / positive.length);
  return pi.map((p) => p / mean);
}

/** A strength on the Elo scale that chess and Chatbot Arena use: 1000 at strength 1, +400 for ten times as strong. */
export function eloScore(strength: number): number {
  return 1000 + 400 * Math.log10(strength);
}

/** A model's rating with its 95 % bootstrap interval. */
export interface Rating {
  model: string;
  score: number;
  low: number;
  high: number;
}

/**
 * Each model's score, with a 95 % percentile interval from `resamples` bootstrap resamples of the
 * choices (drawn with replacement, seeded, so the same history gives the same intervals).
 * Sorted best first.
 */
export function rateWithIntervals(choices: readonly Choice[], options: FitOptions & { resamples?: number; seed?: number } = {}): Rating[] {
  const prepared = prepare(choices);
  const fit = fitChoices(choices, options);
  const resamples = options.resamples ?? 200;
  const random = seededRandom(options.seed ?? 1);
  // One entry per vote (a choice counted twice is two votes), each naming its group.
  const votes = choices.flatMap((c, n) => new Array<number>(c.count ?? 1).fill(prepared.groupOf[n]));
  const samples = prepared.models.map((): number[] => []);
  for (let r = 0; r < resamples && votes.length > 0; r++) {
    const counts = new Array<number>(prepared.groups.length).fill(0);
    for (let k = 0; k < votes.length; k++) counts[votes[Math.floor(random() * votes.length)]]++;
    const refit = fitGroups(prepared, counts, { ...options, start: fit, tolerance: 1e-6 });
    refit.forEach((p, i) => Number.isFinite(p) && samples[i].push(eloScore(p)));
  }
  return prepared.models
    .map((model, i) => {
      const xs = samples[i].sort((a, b) => a - b);
      const score = eloScore(fit.get(model)!);
      return { model, score, low: xs.length ? percentile(xs, 0.025) : score, high: xs.length ? percentile(xs, 0.975) : score };
    })
    .sort((a, b) => b.score - a.score || a.model.localeCompare(b.model));
}

/** The `q` quantile of sorted numbers, interpolated between neighbours. */
function percentile(sorted: readonly number[], q: number): number {
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}
