import { describe, expect, it } from "vitest";
import { createRunService } from "../service/run-service.js";
import {
  checkFormatOptions,
  checkGeneratedTable,
  DEFINED_FORMATS,
  FORMAT_DEFINITIONS,
  HISTORY_FORMATS,
  OPENAI_MODELS,
  SIMULATED_ANSWERS,
} from "../service/formats.js";
import { DebattError } from "../state/errors.js";
import { estimateRun } from "../state/estimate.js";
import { FORMAT_EVENTS } from "../state/events.js";
import { FORMAT_IDS, FORMATS, type FormatId } from "../state/formats.js";
import { FORMAT_PROMPTS } from "../prompts/registry.js";
import { defaultRoster } from "../state/participants.js";
import { FORMAT_TABLES, missingPieces, syncTables, tableText } from "../scripts/format-tables.js";
import { testDeps } from "./support/harness.js";

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return DebattError.isInstance(err) ? err.code : (err as Error).message;
  }
  return undefined;
};

describe("the format registry", () => {
  it("has every format in every table, and nothing else", () => {
    const ids = [...FORMAT_IDS].sort();
    for (const table of [FORMAT_DEFINITIONS, HISTORY_FORMATS, FORMAT_EVENTS, FORMAT_PROMPTS]) expect(Object.keys(table).sort()).toEqual(ids);
    expect(DEFINED_FORMATS).toEqual(FORMAT_IDS);
  });

  it("is written, layer by layer, from FORMATS: the generated tables are current", () => {
    expect(syncTables(true)).toEqual([]);
    expect(FORMAT_TABLES.map((t) => t.name)).toEqual(["FORMAT_EVENTS", "FORMAT_PROMPTS", "FORMAT_PIECES", "FORMAT_VIEWS"]);
  });

  it("imports each format's piece from the file of its name, and names the files a new format lacks", () => {
    const events = FORMAT_TABLES[0];
    const text = tableText(events, ["debatt", "echo"]);
    expect(text).toContain(`import { ECHO_EVENTS } from "./echo.js";`);
    expect(text).toContain(`  echo: ECHO_EVENTS,\n} as const satisfies Record<FormatId, z.ZodRawShape>;`);
    expect(tableText(FORMAT_TABLES[2], ["echo"])).toContain("  echo,\n");
    expect(missingPieces(["debatt", "moa"])).toEqual([]);
    expect(missingPieces(["debatt", "echo"])).toEqual([
      "state/events/echo.ts: its events, a zod shape by event name, exported as ECHO_EVENTS",
      "prompts/echo.ts: its prompts, a list of PromptDefinition, exported as ECHO_PROMPTS",
      expect.stringMatching(/^service\/formats\/echo\.ts: its FormatDefinition .*, exported as echo$/),
      "web/formats/echo.tsx: its page view, a FormatView, exported as ECHO_VIEW",
    ]);
  });

  it("refuses to start on a generated table that lacks a format of the registry", () => {
    expect(() => checkGeneratedTable(FORMAT_DEFINITIONS)).not.toThrow();
    expect(() => checkGeneratedTable({ debatt: 1 }, ["debatt", "echo"])).toThrow(/lack echo: run `npm run formats`/);
  });

  it("reads ballots from the history of exactly the formats whose row says they vote", () => {
    for (const id of FORMAT_IDS) expect(HISTORY_FORMATS[id].ballots !== null, id).toBe(FORMATS[id].ballots);
  });

  it("answers every phase of every format offline, and plans a priced call for every format", () => {
    const roster = defaultRoster();
    const prices = { [roster[0].model]: { input: 1, output: 1 } };
    for (const id of FORMAT_IDS) {
      for (const phase of FORMATS[id].phases) expect(typeof SIMULATED_ANSWERS[phase as keyof typeof SIMULATED_ANSWERS], `${id}: ${phase}`).toBe("function");
      const participants = roster.slice(0, FORMATS[id].participants.min);
      const inputs = {
        question: "Q?",
        internalModel: roster[0].model,
        responseTokensAsked: 800,
        contextChars: 600,
        maxRounds: 3,
        debate: false,
        research: false,
      };
      expect(estimateRun(id, participants, inputs, prices).calls, id).toBeGreaterThan(0);
    }
  });

  it("serves a /v1 model and an MCP tool for each format that says so, by its definition", () => {
    const served = Object.values(OPENAI_MODELS).sort();
    expect(served).toEqual(FORMAT_IDS.filter((id) => FORMAT_DEFINITIONS[id].openaiModel !== null).sort());
    expect(served).not.toContain("dvoice" satisfies FormatId);
  });

  it("checks a run's options against its format's schema, whichever surface starts it", async () => {
    expect(codeOf(() => checkFormatOptions("vote", { chairman: "grok", timeoutMs: 30_000, models: ["a", "b", "c"] }))).toBeUndefined();
    expect(codeOf(() => checkFormatOptions("vote", { maxRounds: 3 }))).toBe("invalid_mode_config");
    expect(codeOf(() => checkFormatOptions("vote", { timeoutMs: 400_000 }))).toBe("invalid_mode_config");
    expect(codeOf(() => checkFormatOptions("deep", { maxRounds: 7 }))).toBe("invalid_mode_config");
    expect(codeOf(() => checkFormatOptions("debatt", { timeoutMs: 30_000 }))).toBe("invalid_mode_config");
    expect(codeOf(() => checkFormatOptions(undefined, { anything: 1 }))).toBeUndefined();
    const { deps } = testDeps();
    const service = createRunService(deps);
    const refused = () => service.start({ message: "/council Is X true?", configurable: { mode_config: { rounds: 2 } } });
    await expect(refused()).rejects.toMatchObject({ code: "invalid_mode_config", message: expect.stringMatching(/\/council's options: .*rounds/) });
  });
});
