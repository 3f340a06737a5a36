/**
 * The events reference: a markdown table of every event a client can receive (its kebab-case name
 * and its payload fields), generated from the zod schemas in `state/events.ts`.
 *
 *   npx tsx scripts/events-reference.ts           prints the table
 *   npx tsx scripts/events-reference.ts --write   rewrites it between the markers in docs/events.md
 *
 * (`npm run docs:events` runs the second.) `tests/docs.test.ts` fails when docs/events.md holds
 * another table than this script generates.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { EventSchemas, StreamEventSchemas, kebabEventName } from "../state/events.js";
import { wireSchemaOf } from "../state/events/wire.js";
import { replaceBlock } from "./doc-blocks.js";

/** The file the reference is written into (between its `events` block's markers). */
export const EVENTS_DOC = fileURLToPath(new URL("../docs/events.md", import.meta.url));

/** The part of a JSON Schema that zod's `toJSONSchema` writes for these payloads. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  /** A discriminated union's shapes. */
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  additionalProperties?: boolean | JsonSchema;
  minItems?: number;
  maxItems?: number;
  /** A camelCase field's deprecated alias (beside its snake_case name). */
  deprecated?: boolean;
}

/** The names of the deprecated camelCase aliases met while describing (listed under the table). */
const aliases = new Set<string>();

/** An object's fields as the reference shows them: the deprecated aliases left out (and noted). */
function shown(properties: Record<string, JsonSchema>): [string, JsonSchema][] {
  return Object.entries(properties).filter(([name, field]) => {
    if (field.deprecated) aliases.add(name);
    return !field.deprecated;
  });
}

/** Enums longer than this are listed under the table rather than in their cell. */
const INLINE_ENUM_MAX = 8;

/** An enum listed under the table: where it is and its values. */
interface LongEnum {
  where: string;
  values: unknown[];
}

const literal = (v: unknown) => `\`${JSON.stringify(v)}\``;

/**
 * A short description of a schema's type at `depth` (1: a payload field). An object in a payload
 * field shows its fields with their types, an object in one of those its field names (`?` marks
 * an optional one), and one nested deeper `{…}`.
 */
function describe(s: JsonSchema, depth: number, where: string, long: LongEnum[]): string {
  if (s.const !== undefined) return literal(s.const);
  if (s.enum) {
    if (s.enum.length > INLINE_ENUM_MAX) {
      long.push({ where, values: s.enum });
      return `one of ${s.enum.length} values (listed below)`;
    }
    return s.enum.map(literal).join(" or ");
  }
  if (s.anyOf) return s.anyOf.map((v) => describe(v, depth, where, long)).join(" or ");
  if (Array.isArray(s.type)) return s.type.map((t) => describe({ ...s, type: t }, depth, where, long)).join(" or ");
  switch (s.type) {
    case "array": {
      const count = s.minItems !== undefined && s.minItems === s.maxItems ? ` (exactly ${s.minItems})` : "";
      return `array of ${s.items ? describe(s.items, depth, where, long) : "any"}${count}`;
    }
    case "object": {
      if (s.properties && Object.keys(s.properties).length > 0) {
        if (depth >= 3) return "{…}";
        const required = new Set(s.required ?? []);
        const names = shown(s.properties).map(([name]) => {
          const field = `${name}${required.has(name) ? "" : "?"}`;
          if (depth >= 2) return field;
          return `${field}: ${describe(s.properties![name], depth + 1, `${where}.${name}`, long)}`;
        });
        return `{${names.join(", ")}}`;
      }
      if (typeof s.additionalProperties === "object") return `record of ${describe(s.additionalProperties, depth, where, long)}`;
      return "object";
    }
    case undefined:
      return "any";
    default:
      return s.type;
  }
}

/** The cell of one payload: its top-level fields, `timestamp` left out (every payload has it). */
function payloadCell(s: JsonSchema, event: string, long: LongEnum[]): string {
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const fields = shown(properties)
    .filter(([name]) => name !== "timestamp")
    .map(([name, field]) => `\`${name}${required.has(name) ? "" : "?"}\`: ${describe(field, 1, `${event}.${name}`, long)}`);
  if (!("timestamp" in properties)) fields.push("(no `timestamp`)");
  return fields.length > 0 ? fields.join("; ") : "—";
}

/** Every event a client receives, in stream order: `metadata`, the graph's events, `done`. */
function allEvents(): [string, z.ZodType][] {
  const graph = Object.entries(EventSchemas as Record<string, z.ZodType>);
  const stream = Object.entries(StreamEventSchemas as Record<string, z.ZodType>);
  const last = stream.filter(([name]) => name === "done");
  return [...stream.filter(([name]) => name !== "done"), ...graph, ...last];
}

/** The markdown of the events reference (what goes between the markers). */
export function eventsReference(): string {
  const long: LongEnum[] = [];
  const rows: string[] = [];
  for (const [name, schema] of allEvents()) {
    const event = kebabEventName(name);
    const json = z.toJSONSchema(wireSchemaOf(schema), { io: "output", unrepresentable: "any" }) as JsonSchema;
    const shapes = json.anyOf ?? json.oneOf ?? [json];
    shapes.forEach((shape, i) => {
      const label = shapes.length > 1 ? `\`${event}\` (shape ${i + 1} of ${shapes.length})` : `\`${event}\``;
      rows.push(`| ${label} | ${payloadCell(shape, event, long)} |`);
    });
  }
  const lines = [
    "<!-- Generated from the zod schemas in state/events.ts by `npm run docs:events`; do not edit by hand. -->",
    "",
    "Every payload also has `timestamp` (a string, ISO 8601). `?` marks a field that may be absent.",
    "Field names are snake_case. A field the schemas declare in camelCase is also sent under that name, with the same value, for one release: those deprecated aliases are listed under the table.",
    "An object in a field shows its fields and their types; an object nested in that shows its field names, and one nested deeper `{…}`.",
    "",
    "| event | payload fields |",
    "|---|---|",
    ...rows,
  ];
  for (const { where, values } of long) {
    lines.push("", `\`${where}\` is one of: ${values.map((v) => `\`${String(v)}\``).join(", ")}.`);
  }
  if (aliases.size > 0) {
    const names = [...aliases].sort();
    lines.push("", `Deprecated camelCase aliases, sent beside their snake_case names until the next release: ${names.map((n) => `\`${n}\``).join(", ")}.`);
  }
  return lines.join("\n");
}

if (process.argv[1]?.endsWith("events-reference.ts")) {
  const markdown = eventsReference();
  if (process.argv.includes("--write")) {
    writeFileSync(EVENTS_DOC, replaceBlock(readFileSync(EVENTS_DOC, "utf8"), "events", markdown, EVENTS_DOC));
    process.stdout.write(`wrote the events reference into ${EVENTS_DOC}\n`);
  } else {
    process.stdout.write(`${markdown}\n`);
  }
}
