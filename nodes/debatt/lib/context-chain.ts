import { truncate } from "../../../state/text.js";

/** The first line of every context: the topic. */
export const topicLine = (topic: string) => `Debattämne: ${topic}`;

/** The header of a round's answers (a round in progress is marked `(hittills)`, "so far"). */
export const roundHeader = (round: number, inProgress = false) => `--- Runda ${round}${inProgress ? " (hittills)" : ""} ---`;

/** One answer under its speaker's name, cut to `maxChars`. */
export const answerLine = (name: string, text: string, maxChars: number) => `[${name}]: ${truncate(text, maxChars)}`;

/**
 * The context a speaker sees: the topic, every answer of every earlier round and the answers of
 * the current round so far, each cut to `maxChars`. Answers are keyed by display name in speaking
 * order.
 */
export function buildContextChain(topic: string, round: number, responses: Record<number, Record<string, string>>, maxChars: number): string {
  const parts = [topicLine(topic)];
  for (let r = 1; r < round; r++) {
    parts.push(roundHeader(r));
    for (const [name, text] of Object.entries(responses[r] ?? {})) parts.push(answerLine(name, text, maxChars));
  }
  const current = Object.entries(responses[round] ?? {});
  if (current.length > 0) {
    parts.push(roundHeader(round, true));
    for (const [name, text] of current) parts.push(answerLine(name, text, maxChars));
  }
  return parts.join("\n");
}

/** The whole debate as one text (convergence and synthesis input), answers uncut. */
export function buildTranscript(topic: string, responses: Record<number, Record<string, string>>): string {
  const rounds = Object.keys(responses)
    .map(Number)
    .sort((a, b) => a - b);
  return buildContextChain(topic, Math.max(0, ...rounds) + 1, responses, Number.POSITIVE_INFINITY);
}
