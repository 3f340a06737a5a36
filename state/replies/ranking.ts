import { replyTail } from "./reply-tail.js";

/**
 * The reply of a ranking in /rank: an evaluation of each anonymised answer, then `FINAL RANKING:`
 * and a numbered list, best first (`1. Response C`). `RANKING_REPLY` is the part of the prompt
 * that asks for it, `parseRanking` reads it (as llm-council does, so its users' prompts and
 * models keep working), `renderRanking` writes it (the offline provider and the test fake answer
 * with it), and `aggregateRankings` averages the valid ones into the council's ranking.
 */

/** The header that opens the ranking section. */
export const RANKING_HEADER = "FINAL RANKING:";

/** The ranking's reply: each answer evaluated on its own, then the ranked list in a fixed shape. */
export const RANKING_REPLY = `First evaluate each response on its own: say what it does well and what it does poorly.

Then end your reply with your ranking, in exactly this shape:
${RANKING_HEADER}
1. Response C
2. Response A
3. Response B

The line ${RANKING_HEADER} stands alone. Below it, one line per response, best first: its place, a full stop, a space and the response's label, nothing else on the line. Rank every response exactly once, and write nothing after the list.`;

/** A ranking as a model should write it: the evaluation (if any), a blank line, the header and the numbered list. */
export function renderRanking(order: readonly string[], evaluation?: string): string {
  const list = order.map((label, i) => `${i + 1}. ${label}`).join("\n");
  return `${evaluation ? `${evaluation}\n\n` : ""}${RANKING_HEADER}\n${list}`;
}

/** Where a ranking's order was read from: the numbered list after the header, the labels mentioned after it (no list), or the whole reply (no header: its last numbered list, else its mentions). */
export type RankingSource = "list" | "section" | "text";

/**
 * Why a ranking does not count: no known label at all, an order read from mere mentions of the
 * labels (no numbered list: an evaluation names the answers in its own order), a label ranked twice
 * in the list, or labels left out.
 */
export type RankingProblem = "no_ranking" | "unlisted" | "repeated" | "incomplete";

/** A ranking as read from a model's reply. */
export interface ParsedRanking {
  /** The known labels in the order given, best first, each once (unknown labels and repeats dropped). */
  order: string[];
  /** Whether it ranks every label in play exactly once. */
  valid: boolean;
  /** Why it is invalid; absent when it is valid. */
  problem?: RankingProblem;
  source: RankingSource;
  /** Labels in play it leaves out. */
  missing: string[];
  /** Labels its numbered list gives more than one place (a mention repeated in prose is no repeat). */
  repeated: string[];
  /** Labels it names that are not in play (`Response F` of A–D), dropped. */
  unknown: string[];
}

// The header on a line of its own, tolerant of markdown around it ("**FINAL RANKING:**", "## Final ranking").
const HEADER = /^[ \t>#*_]*FINAL[ \t]+RANKING\b[ \t*_]*:?/gim;
// A numbered entry, also several on one line: "1. Response C", "2) **Response A**", "**3. Response B**".
const NUMBERED = /(?<![\w.])(\d{1,2})[ \t]*[.)][ \t]*[*_"“]*[ \t]*(?:Response|RESPONSE|response)[ \t]+([A-Z])(?![\p{L}\p{N}])/gu;
// A label mentioned anywhere; the letter must be a capital, so that "a response a reader wants" is none.
const MENTION = /(?<![\p{L}\p{N}])(?:Response|RESPONSE|response)[ \t]+([A-Z])(?![\p{L}\p{N}])/gu;

const labelsIn = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => `Response ${m.at(-1)}`);

/** The labels of the last numbered list in a text: its entries from the last one numbered 1 (all of them when none is). */
function lastList(text: string): string[] {
  const entries = [...text.matchAll(NUMBERED)];
  const start = entries.findLastIndex((m) => Number(m[1]) === 1);
  return entries.slice(Math.max(0, start)).map((m) => `Response ${m[2]}`);
}

/**
 * Reads a ranking: the numbered `Response X` entries after the last `FINAL RANKING:` header;
 * without a header, the last numbered list of the reply (an evaluation names the answers in its
 * own order first). Without a list, the order the labels are first mentioned in (after the
 * header, or in the whole text) is read and shown, but never counts (`unlisted`). Unknown labels
 * and repeats are dropped; the ranking is valid only when its list gives every label in `labels`
 * exactly one place. A list that gives a label two places is invalid (which place would count?);
 * a label mentioned again in prose is not a second place. A long reply is read from its end
 * (`replyTail`).
 */
export function parseRanking(text: string, labels: readonly string[]): ParsedRanking {
  text = replyTail(text);
  const headers = [...text.matchAll(HEADER)];
  const last = headers.at(-1);
  const section = last ? text.slice(last.index + last[0].length) : text;
  const numbered = last ? labelsIn(section, NUMBERED) : lastList(text);
  const listed = numbered.length > 0;
  const source: RankingSource = last ? (listed ? "list" : "section") : "text";
  const raw = listed ? numbered : labelsIn(section, MENTION);
  const inPlay = new Set(labels);
  const order: string[] = [];
  const unknown = new Set<string>();
  const repeated = new Set<string>();
  for (const label of raw) {
    if (!inPlay.has(label)) unknown.add(label);
    else if (order.includes(label)) repeated.add(label);
    else order.push(label);
  }
  const missing = labels.filter((l) => !order.includes(l));
  // Mentions repeat naturally in prose (the first one counts); only a list's repeat is a second place.
  const repeats = listed ? [...repeated] : [];
  const problem: RankingProblem | undefined =
    order.length === 0 ? "no_ranking" : !listed ? "unlisted" : repeats.length > 0 ? "repeated" : missing.length > 0 ? "incomplete" : undefined;
  return { order, valid: problem === undefined, ...(problem ? { problem } : {}), source, missing, repeated: repeats, unknown: [...unknown] };
}

/** One answer's place in the council's ranking. */
export interface AggregatePlace {
  label: string;
  /** Its mean place over the valid rankings (1 = best). */
  averagePosition: number;
  /** How many rankings gave it a place. */
  rankings: number;
}

/**
 * The council's ranking: each label's mean place over the valid rankings (1 = best), best first;
 * a tie goes to the earlier name (`nameOf`, e.g. the author's display name), then label. Invalid
 * rankings do not count. Empty when no ranking is valid.
 */
export function aggregateRankings(
  rankings: readonly { order: readonly string[]; valid: boolean }[],
  labels: readonly string[],
  nameOf: (label: string) => string = (l) => l,
): AggregatePlace[] {
  const valid = rankings.filter((r) => r.valid);
  if (valid.length === 0) return [];
  const places = labels.map((label) => {
    const positions = valid.map((r) => r.order.indexOf(label) + 1).filter((p) => p > 0);
    const mean = positions.reduce((a, p) => a + p, 0) / positions.length;
    return { label, averagePosition: Math.round(mean * 1000) / 1000, rankings: positions.length };
  });
  return places.sort((a, b) => a.averagePosition - b.averagePosition || nameOf(a.label).localeCompare(nameOf(b.label)) || a.label.localeCompare(b.label));
}
