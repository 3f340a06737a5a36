import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../state/config.js";
import { ConfigError } from "../state/errors.js";
import { addUsage, NO_USAGE, usageOfCall, type PriceTable } from "../state/usage.js";

const PRICES: PriceTable = { "openai/gpt-4o": { input: 2.5, output: 10, cached_input: 1.25 }, "anthropic/claude-sonnet-4.5": { input: 3, output: 15 } };

describe("what model calls cost", () => {
  it("takes the provider's own cost when it gives one, over the price table", () => {
    const u = usageOfCall("openai/gpt-4o", { input_tokens: 1000, output_tokens: 500, cached_tokens: 0, cost_usd: 0.0123 }, PRICES);
    expect(u).toEqual({ calls: 1, input_tokens: 1000, output_tokens: 500, cached_tokens: 0, cost_usd: 0.0123, unpriced_calls: 0 });
  });

  it("prices tokens from the table, cached input at its own price (else the input price)", () => {
    // 800 fresh input × 2.5 + 200 cached × 1.25 + 500 output × 10, per million.
    expect(usageOfCall("openai/gpt-4o", { input_tokens: 1000, output_tokens: 500, cached_tokens: 200 }, PRICES).cost_usd).toBeCloseTo((800 * 2.5 + 200 * 1.25 + 500 * 10) / 1e6, 12);
    expect(usageOfCall("anthropic/claude-sonnet-4.5", { input_tokens: 1000, output_tokens: 0, cached_tokens: 400 }, PRICES).cost_usd).toBeCloseTo((1000 * 3) / 1e6, 12);
  });

  it("counts a model missing from the table as unpriced: tokens only, never a cost of zero passed off as known", () => {
    const u = usageOfCall("meta/llama-4", { input_tokens: 10, output_tokens: 20, cached_tokens: 0 }, PRICES);
    expect(u).toMatchObject({ calls: 1, input_tokens: 10, output_tokens: 20, cost_usd: 0, unpriced_calls: 1 });
    // A table's prototype keys are not models.
    expect(usageOfCall("constructor", { input_tokens: 1, output_tokens: 1, cached_tokens: 0 }, PRICES).unpriced_calls).toBe(1);
  });

  it("adds usages field by field, without float dust in the cost", () => {
    let total = NO_USAGE;
    for (let i = 0; i < 10; i++) total = addUsage(total, usageOfCall("x", { input_tokens: 1, output_tokens: 2, cached_tokens: 0, cost_usd: 0.1 }, {}));
    expect(total).toEqual({ calls: 10, input_tokens: 10, output_tokens: 20, cached_tokens: 0, cost_usd: 1, unpriced_calls: 0 });
  });
});

describe("MODEL_PRICES", () => {
  it("is read inline or from a file, and absent means an empty table", () => {
    expect(loadSettings({}).prices).toEqual({});
    expect(loadSettings({ MODEL_PRICES: JSON.stringify(PRICES) }).prices).toEqual(PRICES);
    const file = join(mkdtempSync(join(tmpdir(), "debatt-prices-")), "prices.json");
    writeFileSync(file, JSON.stringify(PRICES));
    expect(loadSettings({ MODEL_PRICES: file }).prices).toEqual(PRICES);
  });

  it("names the problem: a missing file, bad JSON, a negative or missing price, an unknown field", () => {
    const refusal = (raw: string) => {
      try {
        loadSettings({ MODEL_PRICES: raw });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal("/nonexistent/prices.json")).toMatch(/MODEL_PRICES: cannot read file "\/nonexistent\/prices.json"/);
    expect(refusal("{nope")).toMatch(/MODEL_PRICES is not valid JSON/);
    expect(refusal('{"m": {"input": -1, "output": 2}}')).toMatch(/MODEL_PRICES:[^]*input/);
    expect(refusal('{"m": {"input": 1}}')).toMatch(/MODEL_PRICES:[^]*output/);
    expect(refusal('{"m": {"input": 1, "output": 2, "currency": "EUR"}}')).toMatch(/MODEL_PRICES:[^]*currency/);
  });
});
