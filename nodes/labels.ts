import { randomInt } from "node:crypto";
import { shuffleForRound } from "./shuffle.js";

/** The label of the i-th anonymised answer: "Response A", "Response B", … (seed 001). */
export function responseLabel(index: number): string {
  return `Response ${String.fromCharCode(65 + index)}`;
}

/**
 * A fresh anonymisation: the items in a shuffled order, labelled A, B, C… Each vote draws its own
 * (seed 001: labels are shuffled per vote); a run seed makes it reproducible, `salt` tells apart
 * the label maps of one run.
 */
export function createLabelMap<T>(items: readonly T[], seed: number | undefined, salt: number): Map<string, T> {
  const order = shuffleForRound(items, seed ?? randomInt(2 ** 31), salt);
  return new Map(order.map((item, i) => [responseLabel(i), item]));
}
