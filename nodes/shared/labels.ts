import { randomInt } from "node:crypto";
import { redactSelfIdentification } from "./anonymity.js";
import { shuffleForRound } from "./shuffle.js";

/** The label of the i-th anonymised answer: "Response A", "Response B", … */
export function responseLabel(index: number): string {
  return `Response ${String.fromCharCode(65 + index)}`;
}

/**
 * A fresh anonymisation: the items in a shuffled order, labelled A, B, C… Each vote draws its own
 * labels; a run seed makes it reproducible, `salt` tells apart the label maps of one run. `label`
 * names the i-th (default `Response A`, `Response B`, …).
 */
export function createLabelMap<T>(
  items: readonly T[],
  seed: number | undefined,
  salt: number,
  label: (index: number) => string = responseLabel,
): Map<string, T> {
  const order = shuffleForRound(items, seed ?? randomInt(2 ** 31), salt);
  return new Map(order.map((item, i) => [label(i), item]));
}

/**
 * Answers as judges see them: `--- Response X ---` and the text, each with its author's
 * self-identification removed; with `votes`, each header also gives its vote count.
 */
export function labelledResponses(
  labels: Record<string, string>,
  textOf: (key: string) => string,
  names: readonly string[],
  votes?: Record<string, number>,
): string {
  return Object.entries(labels)
    .map(([label, key]) => `--- ${label}${votes ? ` (${votes[label] ?? 0} votes)` : ""} ---\n${redactSelfIdentification(textOf(key), names)}\n\n`)
    .join("");
}
