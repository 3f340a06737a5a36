import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_IDS, FORMATS } from "../state/formats.js";
import { brokenWords, CHROMIUM, CHROMIUM_ARGS, haveChromium } from "./support/browser.js";
import { serverProcesses } from "./support/server-process.js";

/**
 * Real models have long names ("DeepSeek V3.1 Terminus"), and a card's header holds the name beside
 * its badges ("Response B · 2 votes", "writing…"). The page at a phone's, a laptop's and a wide
 * window's width, in every format, must never break a participant's name inside a word.
 */

const LONG_NAMES = JSON.stringify([
  { key: "call_claude", display: "Claude Sonnet 4.5", model: "anthropic/claude-sonnet-4.5" },
  { key: "call_gemini", display: "Gemini 2.5 Pro", model: "google/gemini-2.5-pro" },
  { key: "call_deepseek", display: "DeepSeek V3.1 Terminus", model: "deepseek/deepseek-v3.1-terminus" },
  { key: "call_qwen", display: "Qwen3 Max Thinking", model: "qwen/qwen3-max" },
  { key: "call_gpt", display: "GPT-5.1", model: "openai/gpt-5.1" },
  { key: "call_oneseek", display: "OneSeek Research", model: "openai/gpt-4.1-mini", oneseek: true },
]);

const WIDTHS = [390, 1280, 1400];

/** Where a participant is named: a card's header, a verdict table's row. */
const NAMES = ".card h3, .verdicts tbody th";

describe.skipIf(!haveChromium)(`participants' names on every view${haveChromium ? "" : " (skipped: chromium is not installed)"}`, () => {
  let browser: Browser;
  const start = serverProcesses();
  let url = "";

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    url = (await start({ DEBATE_PARTICIPANTS: LONG_NAMES, SIMULATED_LATENCY_MS: "5", SIMULATED_CHUNK_DELAY_MS: "2", RUNS_PER_MINUTE: "1000" })).url;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const id of FORMAT_IDS.filter((f) => f !== "dvoice"))
    it(`${FORMATS[id].command}: no name broken inside a word while it runs and at its end, at ${WIDTHS.join(", ")} px`, async () => {
      for (const width of WIDTHS) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(url);
          await page.locator("#message").fill(`${FORMATS[id].command} Which database should a small shop use?`);
          await page.locator("#message").press("Enter");
          // While it runs (a card with its badges), and once it has ended.
          await page.locator(NAMES).first().waitFor({ timeout: 60_000 });
          const during = await brokenWords(page, NAMES);
          await page.locator("button.stop").waitFor({ state: "detached", timeout: 120_000 });
          const after = await brokenWords(page, NAMES);
          expect({ width, during, after }).toEqual({ width, during: [], after: [] });
        } finally {
          await context.close();
        }
      }
    });
});
