import { vendorOf, type Ballot } from "./ballots.js";
import { seededRandom } from "../random.js";

/**
 * What decides votes besides the answers' quality, measured over a history of ballots: where an
 * answer stood in what the voter read, its length, and whether the voter favoured its own vendor.
 * Each finding says how often it happened, how often chance alone would make it happen, and
 * whether the difference is significant at 5 % (two-sided).
 */

/** The biases measured. */
export const BIASES = ["first_position", "last_position", "length", "own_vendor_named", "own_vendor_anonymous"] as const;
export type BiasId = (typeof BIASES)[number];

/** One measured bias. */
export interface BiasFinding {
  id: BiasId;
  /** Ballots it was measured on. */
  ballots: number;
  /** How many of them showed it (the first / last answer chosen, the longest chosen, the own vendor chosen). */
  observed: number;
  /** How many chance alone would give. */
  expected: number;
  /** The two-sided p-value; null with fewer than `MIN_BALLOTS` ballots. */
  p_value: number | null;
  significant: boolean;
  /** `length`: the correlation between being chosen and the answer's length (its words less the ballot's mean). */
  correlation?: number;
}

/** Below this many ballots a finding gets no p-value: no test could find much. */
const MIN_BALLOTS = 10;
const ALPHA = 0.05;

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26; error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Up to this many ballots the p-value is exact; beyond, the normal approximation is as good and far cheaper. */
const EXACT_UP_TO = 2000;

/**
 * The two-sided p-value of `observed` hits among events that each happen with their own chance
 * (a Poisson binomial distribution): the probability of every count no more likely than the one
 * observed, as an exact binomial test counts it. Computed exactly from the distribution up to
 * `EXACT_UP_TO` events, by the normal approximation beyond.
 */
export function poissonBinomialPValue(chances: readonly number[], observed: number): number {
  if (chances.length > EXACT_UP_TO) {
    const mean = chances.reduce((a, p) => a + p, 0);
    const variance = chances.reduce((a, p) => a + p * (1 - p), 0);
    return variance === 0 ? 1 : Math.min(1, 2 * (1 - normalCdf(Math.abs(observed - mean) / Math.sqrt(variance))));
  }
  // pmf[k]: the probability of k hits among the events so far.
  let pmf = [1];
  for (const p of chances) {
    const next = new Array<number>(pmf.length + 1).fill(0);
    pmf.forEach((q, k) => {
      next[k] += q * (1 - p);
      next[k + 1] += q * p;
    });
    pmf = next;
  }
  const at = pmf[observed] ?? 0;
  // A relative tolerance, so that counts exactly as likely are not lost to rounding.
  return Math.min(
    1,
    pmf.filter((q) => q <= at * (1 + 1e-7)).reduce((a, q) => a + q, 0),
  );
}

/**
 * Events that each happen with their own chance p: the count observed against the expected Σp,
 * with the two-sided p-value of `poissonBinomialPValue`.
 */
function chanceTest(events: { hit: boolean; p: number }[]): Pick<BiasFinding, "ballots" | "observed" | "expected" | "p_value" | "significant"> {
  const observed = events.filter((e) => e.hit).length;
  const expected = events.reduce((a, e) => a + e.p, 0);
  const p_value =
    events.length < MIN_BALLOTS
      ? null
      : poissonBinomialPValue(
          events.map((e) => e.p),
          observed,
        );
  return { ballots: events.length, observed, expected, p_value, significant: p_value !== null && p_value < ALPHA };
}

/** The answer a ballot chose. */
const chosenOf = (b: Ballot) => b.candidates.find((c) => c.position === b.chosenPosition);

/** Ballots with a real choice: at least two answers to choose from, the chosen among them. */
const choosing = (ballots: readonly Ballot[]) => ballots.filter((b) => b.candidates.length >= 2 && chosenOf(b) !== undefined);

/** The chosen answer was the one at the start (`first`) or the end of what the voter read. */
function positionBias(ballots: readonly Ballot[], id: "first_position" | "last_position"): BiasFinding {
  const events = choosing(ballots).map((b) => {
    const positions = b.candidates.map((c) => c.position);
    const edge = id === "first_position" ? Math.min(...positions) : Math.max(...positions);
    return { hit: b.chosenPosition === edge, p: 1 / b.candidates.length };
  });
  return { id, ...chanceTest(events) };
}

/**
 * Length: the longest answer chosen, against chance, and the correlation between being chosen and
 * length; the p-value is a permutation test of that correlation (each ballot's choice redrawn at
 * random, `permutations` times, seeded).
 */
function lengthBias(ballots: readonly Ballot[], permutations = 2000, seed = 1): BiasFinding {
  // Ballots whose answers' lengths are all known, and not all the same.
  const usable = choosing(ballots).filter((b) => b.candidates.every((c) => c.words !== null) && new Set(b.candidates.map((c) => c.words)).size > 1);
  const wordsOf = (b: Ballot) => b.candidates.map((c) => c.words!);
  const events = usable.map((b) => {
    const longest = Math.max(...wordsOf(b));
    return { hit: chosenOf(b)!.words === longest, p: wordsOf(b).filter((w) => w === longest).length / b.candidates.length };
  });
  const base = chanceTest(events);
  // Each answer's words less its ballot's mean: the correlation then compares answers within a ballot.
  const centred = usable.map((b) => {
    const mean = wordsOf(b).reduce((a, w) => a + w, 0) / b.candidates.length;
    return { words: wordsOf(b).map((w) => w - mean), chosen: b.candidates.findIndex((c) => c.position === b.chosenPosition) };
  });
  const correlation = centredCorrelation(
    centred,
    centred.map((b) => b.chosen),
  );
  let p_value: number | null = null;
  if (usable.length >= MIN_BALLOTS) {
    const random = seededRandom(seed);
    let asExtreme = 0;
    for (let k = 0; k < permutations; k++) {
      const drawn = centred.map((b) => Math.floor(random() * b.words.length));
      if (Math.abs(centredCorrelation(centred, drawn)) >= Math.abs(correlation) - 1e-12) asExtreme++;
    }
    p_value = (asExtreme + 1) / (permutations + 1);
  }
  return { id: "length", ...base, p_value, significant: p_value !== null && p_value < ALPHA, correlation };
}

/** Pearson's r between "chosen" (1 for the chosen answer, else 0) and the centred words, over every answer of every ballot. */
function centredCorrelation(ballots: { words: number[] }[], chosen: number[]): number {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  ballots.forEach((b, i) =>
    b.words.forEach((w, j) => {
      const y = j === chosen[i] ? 1 : 0;
      n++;
      sx += w;
      sy += y;
      sxx += w * w;
      syy += y * y;
      sxy += w * y;
    }),
  );
  const cov = sxy - (sx * sy) / n;
  const vx = sxx - (sx * sx) / n;
  const vy = syy - (sy * sy) / n;
  return vx > 0 && vy > 0 ? cov / Math.sqrt(vx * vy) : 0;
}

/** The voter chose an answer of its own vendor (its own included, where it could choose its own), on ballots that had one to choose. */
function ownVendorBias(ballots: readonly Ballot[], namesKnown: boolean): BiasFinding {
  const events = choosing(ballots)
    .filter((b) => b.namesKnown === namesKnown)
    .map((b) => {
      const vendor = vendorOf(b.voter);
      const own = b.candidates.filter((c) => vendorOf(c.model) === vendor).length;
      return { hit: vendorOf(b.chosen) === vendor, p: own / b.candidates.length };
    })
    .filter((e) => e.p > 0);
  return { id: namesKnown ? "own_vendor_named" : "own_vendor_anonymous", ...chanceTest(events) };
}

/** Every bias of `BIASES`, measured over `ballots`. */
export function measureBiases(ballots: readonly Ballot[], seed = 1): BiasFinding[] {
  return [
    positionBias(ballots, "first_position"),
    positionBias(ballots, "last_position"),
    lengthBias(ballots, 2000, seed),
    ownVendorBias(ballots, true),
    ownVendorBias(ballots, false),
  ];
}
