import { truncate } from "../../../state/text.js";

/**
 * The context a speaker sees: the topic, every answer of every earlier round and the answers of
 * the current round so far, each cut to `maxChars`. Answers are keyed by display name in speaking
 * order.
 */
export function buildContextChain(
  topic: string,
  round: number,
  responses: Record<number, Record<string, string>>,
  maxChars: number,
): string {
  const parts = [`Debattämne: ${topic}`];
  for (let r = 1; r < round; r++) {
    parts.push(`--- Runda ${r} ---`);
    for (const [name, text] of Object.entries(responses[r] ?? {})) parts.push(`[${name}]: ${truncate(text, maxChars)}`);
  }
  const current = Object.entries(responses[round] ?? {});
  if (current.length > 0) {
    parts.push(`--- Runda ${round} (hittills) ---`);
    for (const [name, text] of current) parts.push(`[${name}]: ${truncate(text, maxChars)}`);
  }
  return parts.join("\n");
}

/** The whole debate as one text (convergence and synthesis input), answers uncut. */
export function buildTranscript(topic: string, responses: Record<number, Record<string, string>>): string {
  const rounds = Object.keys(responses).map(Number).sort((a, b) => a - b);
  return buildContextChain(topic, Math.max(0, ...rounds) + 1, responses, Number.POSITIVE_INFINITY);
}
