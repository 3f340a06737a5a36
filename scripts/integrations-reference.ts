/**
 * The docs' tables that list the formats: the `/v1` models and the MCP tools (docs/integrations.md)
 * and the deliberate endpoint's modes (docs/api.md), generated from the formats' definitions
 * (service/formats.ts) and the schemas as served (service/mcp.ts, routes/deliberate.ts), options
 * and limits included.
 *
 *   npx tsx scripts/integrations-reference.ts           prints the tables
 *   npx tsx scripts/integrations-reference.ts --write   rewrites them between their markers
 *
 * (`npm run docs:integrations` runs the second.) `tests/docs.test.ts` fails when a doc holds
 * other tables than this script generates.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { FORMAT_DEFINITIONS, OPENAI_MODELS } from "../service/formats.js";
import { TOOLS } from "../service/mcp.js";
import { ENDPOINT_FORMATS } from "../routes/deliberate.js";
import { FORMATS } from "../state/formats.js";
import { replaceBlock } from "./doc-blocks.js";

/** The files the tables are written into (between their `models` and `tools`, and `modes` blocks' markers). */
export const INTEGRATIONS_DOC = fileURLToPath(new URL("../docs/integrations.md", import.meta.url));
export const API_DOC = fileURLToPath(new URL("../docs/api.md", import.meta.url));

const GENERATED = "<!-- Generated from the formats' definitions by `npm run docs:integrations`; do not edit by hand. -->";

/** The `/v1` models: one per format its definition serves, with what its content is. */
export function modelsTable(): string {
  const rows = Object.entries(OPENAI_MODELS).map(([model, id]) => `| \`${model}\` | \`${FORMATS[id].command}\` | ${FORMAT_DEFINITIONS[id].result} |`);
  return [GENERATED, "", "| model | format | the content (the result) |", "|---|---|---|", ...rows].join("\n");
}

/** A number with spaces between its thousands, as the docs write them. */
const spaced = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");

/** An option as the table names it: its name, and its limits when it has both. */
function option(name: string, schema: z.ZodType): string {
  const inner = (schema as unknown as { _zod: { def: { innerType?: z.ZodType } } })._zod.def.innerType ?? schema;
  const { minValue, maxValue } = inner as unknown as { minValue?: number | null; maxValue?: number | null };
  const limited = typeof minValue === "number" && typeof maxValue === "number" && minValue > 0 && Number.isFinite(maxValue);
  return `\`${name}\`${limited ? ` (${spaced(minValue)}–${spaced(maxValue)})` : ""}`;
}

/** The MCP tools: one per format its definition gives one, with its options, then the history's two. */
export function toolsTable(): string {
  const rows = TOOLS.map(
    (t) =>
      `| \`${t.name}\` | \`${FORMATS[t.format].command}\` | ${Object.entries(t.options.shape)
        .map(([name, schema]) => option(name, schema as z.ZodType))
        .join(", ")} | ${FORMAT_DEFINITIONS[t.format].result} |`,
  );
  return [
    GENERATED,
    "",
    "| tool | format | `options` | the text result |",
    "|---|---|---|---|",
    ...rows,
    "| `list_conversations` | the history | `limit` (1–100), `cursor` | the caller's conversations, newest first |",
    "| `get_conversation` | the history | `id` | one conversation, each answer with its run's full result |",
  ].join("\n");
}

/** The deliberate endpoint's modes: one per format it runs, with its `modeConfig` fields and their limits. */
export function modesTable(): string {
  const rows = ENDPOINT_FORMATS.map(({ format, schema, modelsField }) => {
    const config = (schema.shape.modeConfig as unknown as { _zod: { def: { innerType: z.ZodObject } } })._zod.def.innerType;
    const { min, max } = FORMATS[format].participants;
    const fields = Object.entries(config.shape).map(([name, field]) =>
      name === modelsField ? `\`${name}\` (${min}–${max})` : option(name, field as z.ZodType),
    );
    return `| \`${FORMATS[format].storedMode}\` | \`${FORMATS[format].command}\` | ${fields.join(", ")} |`;
  });
  return [
    "<!-- Generated from the formats' definitions by `npm run docs:integrations`; do not edit by hand. -->",
    "",
    "| `mode` | format | `modeConfig` (every field optional; the models' count and the limits in brackets) |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}

if (process.argv[1]?.endsWith("integrations-reference.ts")) {
  if (process.argv.includes("--write")) {
    let doc = readFileSync(INTEGRATIONS_DOC, "utf8");
    doc = replaceBlock(doc, "models", modelsTable(), INTEGRATIONS_DOC);
    doc = replaceBlock(doc, "tools", toolsTable(), INTEGRATIONS_DOC);
    writeFileSync(INTEGRATIONS_DOC, doc);
    writeFileSync(API_DOC, replaceBlock(readFileSync(API_DOC, "utf8"), "modes", modesTable(), API_DOC));
    process.stdout.write(`wrote the models and tools tables into ${INTEGRATIONS_DOC}, the modes into ${API_DOC}\n`);
  } else {
    process.stdout.write(`${modelsTable()}\n\n${toolsTable()}\n\n${modesTable()}\n`);
  }
}
