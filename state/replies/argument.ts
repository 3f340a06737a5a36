import { DebaterArgumentSchema, type DebaterArgument } from "../deep.js";
import { readLastObject, schemaIssues } from "./json.js";

/**
 * The reply of a /deep debater: one JSON object with its stance, points, counterpoints, revision
 * and confidence. `ARGUMENT_REPLY` is the part of the debater prompt that shows it,
 * `parseArgument` reads it and `renderArgument` writes it.
 */
export const ARGUMENT_REPLY = `\`\`\`json
{
  "stance": "maintain|concede|partial_concede",
  "key_points": ["<your strongest arguments>"],
  "counterpoints": [
    {"target": "Debater X", "point": "<what they got wrong>", "evidence": "<why>"}
  ],
  "revision": "no_change|minor_update|major_revision",
  "revised_position": "<your updated answer if revision != no_change>",
  "confidence": 0.0-1.0
}
\`\`\``;

/** What `parseArgument` makes of a reply. */
export type ArgumentParse = { ok: true; argument: DebaterArgument } | { ok: false; reason: string };

/**
 * Reads a debater's JSON (plain, fenced or inside prose) against `DebaterArgumentSchema`. Repairs
 * rather than losing the round: a confidence given in percent (85) becomes 0.85, missing lists
 * become empty, and a `no_change` without a position keeps the debater's position so far. The last
 * object of the reply that reads as an argument counts, not one it quotes before it.
 */
export function parseArgument(text: string, position: string): ArgumentParse {
  return readLastObject(
    text,
    (json): ArgumentParse => {
      const confidence = typeof json.confidence === "number" && json.confidence > 1 && json.confidence <= 100 ? json.confidence / 100 : json.confidence;
      const revision = typeof json.revision === "string" ? json.revision.toLowerCase() : json.revision;
      const parsed = DebaterArgumentSchema.safeParse({
        ...json,
        stance: typeof json.stance === "string" ? json.stance.toLowerCase() : json.stance,
        revision,
        key_points: json.key_points ?? [],
        counterpoints: json.counterpoints ?? [],
        revised_position: typeof json.revised_position === "string" && json.revised_position.trim() ? json.revised_position : position,
        confidence,
      });
      if (!parsed.success) return { ok: false, reason: schemaIssues(parsed.error, "argument") };
      return { ok: true, argument: parsed.data };
    },
    { ok: false, reason: "no JSON object in the answer" },
  );
}

/** An argument as a model should write it. */
export function renderArgument(argument: DebaterArgument): string {
  return JSON.stringify(argument);
}
