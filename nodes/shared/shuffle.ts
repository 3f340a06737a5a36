import { seededRandom } from "../../state/random.js";

/** A freshly shuffled copy (Fisher–Yates) for one round: the order depends on the seed and the round. */
export function shuffleForRound<T>(items: readonly T[], seed: number, round: number): T[] {
  const random = seededRandom(seed * 31 + round * 7919);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
