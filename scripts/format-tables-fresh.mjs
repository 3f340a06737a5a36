// Before every npm script that compiles, tests, builds or runs the product, and at install
// (`prepare`): makes sure the per-layer format tables are written and current, without starting
// tsx when nothing changed. scripts/format-tables.ts writes the tables from FORMATS and records
// what it read and wrote (RECORD: each input's hash, each table's path); this compares the record
// with the files, in milliseconds, and runs the generator only when an input changed or a table is
// missing. Messages go to stderr only (`npm run -s mcp` keeps stdout for the protocol).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const RECORD = "node_modules/.cache/debatt/format-tables.json";
const sha = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

function current() {
  if (!existsSync(RECORD)) return false;
  try {
    const { inputs, tables } = JSON.parse(readFileSync(RECORD, "utf8"));
    return Object.entries(inputs).every(([file, hash]) => existsSync(file) && sha(file) === hash) && tables.every((t) => existsSync(t));
  } catch {
    return false;
  }
}

if (!current()) execFileSync(join("node_modules", ".bin", "tsx"), ["scripts/format-tables.ts"], { stdio: ["ignore", process.stderr, "inherit"] });
