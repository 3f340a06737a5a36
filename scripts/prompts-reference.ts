/**
 * The prompts reference: a markdown table of every registered prompt (its key, what it is for, its
 * placeholders, `*` marking a required one), generated from `PROMPTS` in prompts/registry.ts.
 *
 *   npx tsx scripts/prompts-reference.ts           prints the table
 *   npx tsx scripts/prompts-reference.ts --write   rewrites it between the markers in docs/configuration.md
 *
 * (`npm run docs:prompts` runs the second.) `tests/docs.test.ts` fails when docs/configuration.md
 * holds another table than this script generates.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PROMPTS } from "../prompts/registry.js";
import { replaceBlock } from "./doc-blocks.js";

/** The file the table is written into (between its `prompts` block's markers). */
export const PROMPTS_DOC = fileURLToPath(new URL("../docs/configuration.md", import.meta.url));

/** The markdown of the prompts table (what goes between the markers). */
export function promptsReference(): string {
  return [
    "<!-- Generated from prompts/registry.ts by `npm run docs:prompts`; do not edit by hand. -->",
    "",
    "| key | what it is for | placeholders |",
    "|---|---|---|",
    ...PROMPTS.map((p) => `| \`${p.key}\` | ${p.description} | ${p.placeholders.map((x) => `\`{${x.name}}\`${x.required ? "*" : ""}`).join(", ")} |`),
  ].join("\n");
}

if (process.argv[1]?.endsWith("prompts-reference.ts")) {
  const markdown = promptsReference();
  if (process.argv.includes("--write")) {
    writeFileSync(PROMPTS_DOC, replaceBlock(readFileSync(PROMPTS_DOC, "utf8"), "prompts", markdown, PROMPTS_DOC));
    process.stdout.write(`wrote the prompts table into ${PROMPTS_DOC}\n`);
  } else {
    process.stdout.write(`${markdown}\n`);
  }
}
