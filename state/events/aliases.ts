/**
 * The camelCase field names the event schemas declare, each sent beside its snake_case alias
 * (tests/events-wire.test.ts checks this list against the schemas). Only these are read back as
 * aliases: a record key that merely looks like one (`gpt_4o` beside `gpt4o`) is data.
 */
export const ALIASED_FIELDS: ReadonlySet<string> = new Set([
  "anonymityBreach",
  "anonymityFlagged",
  "antiAnchoring",
  "averagePosition",
  "changeJustification",
  "conversationId",
  "invalidRankings",
  "invalidVoteCount",
  "isTie",
  "labelMap",
  "labelToModel",
  "maxRounds",
  "messageId",
  "minRounds",
  "modelKey",
  "moderatorError",
  "originalResponse",
  "originalWordCount",
  "parseFailed",
  "parseSuccess",
  "parsedRanking",
  "rankingText",
  "responseTimeMs",
  "revisedLabelMap",
  "revisedLabelToModel",
  "revisedResponse",
  "revisedWordCount",
  "revisionText",
  "tiebreakerMethod",
  "tiebreakerModel",
  "tiedLabels",
  "totalModels",
  "totalVotes",
  "unjustifiedChange",
  "validRankings",
  "validVoteCount",
  "voteCount",
  "voteText",
  "votedFor",
  "winnerDecision",
  "winnerDisplay",
  "winnerLabel",
  "winnerModel",
  "winnerResponse",
]);

/**
 * A payload without the snake_case aliases the wire adds beside its camelCase fields
 * (`model_key` beside `modelKey`), deep: the payload as the event schemas declare it. For the
 * page, whose reducers read the declared fields and keep payloads whole in their state. No zod
 * here: the page's bundle imports it. (A snake_case field without a camelCase twin is kept.)
 */
export function withoutAliases<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutAliases) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k.includes("_")) {
      const camel = k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
      if (ALIASED_FIELDS.has(camel) && camel in value) continue;
    }
    out[k] = withoutAliases(v);
  }
  return out as T;
}
