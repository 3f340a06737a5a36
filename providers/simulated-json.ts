/**
 * The simulated provider's JSON result: the answer quoted in the prompt written as a value of the
 * JSON Schema quoted there (as `openai.json_result` asks), offline and deterministic: each string
 * is the answer's first sentence, numbers 0, booleans false, an array one item, an enum its first.
 */
export function simulatedJson(prompt: string): string {
  const schema = schemaIn(prompt);
  const answer = /The answer:\n([\s\S]*?)\n\nReply with/.exec(prompt)?.[1]?.trim() ?? prompt.trim();
  const sentence = /^(.+?[.!?])(?:\s|$)/s.exec(answer)?.[1] ?? answer.slice(0, 200);
  return JSON.stringify(schema ? valueOf(schema, sentence) : { answer });
}

type Schema = Record<string, unknown>;

/** The first JSON object of the prompt, when it parses. */
function schemaIn(prompt: string): Schema | undefined {
  const match = /\n(\{[\s\S]*?\n\})\n/.exec(prompt);
  try {
    return match ? (JSON.parse(match[1]) as Schema) : undefined;
  } catch {
    return undefined;
  }
}

function valueOf(schema: Schema, text: string): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return text;
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return schema.items && typeof schema.items === "object" ? [valueOf(schema.items as Schema, text)] : [];
    case "null":
      return null;
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const keys = Object.keys(properties);
      if (keys.length === 0) return { answer: text };
      return Object.fromEntries(keys.map((k) => [k, valueOf(properties[k], text)]));
    }
  }
}
