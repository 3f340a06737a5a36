import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_IDS, FORMATS } from "../state/formats.js";
import { brokenWords, CHROMIUM, CHROMIUM_ARGS, haveChromium, outsideTheirBox } from "./support/browser.js";
import { serverProcesses } from "./support/server-process.js";

/**
 * Real models have long names ("DeepSeek V3.1 Terminus"), and a card's header holds the name beside
 * its badges ("Response B · 2 votes", "writing…", "speaking now", "+49 words"). The page at a
 * phone's, a laptop's and a wide window's width, in every format, must never break a participant's
 * name inside a word, nor leave a card's dot on a line of its own or a badge outside its card: while
 * it runs, at its end, on /dvoice beside the "speaking now" badge, on /revise's second round, and on
 * the seat of a person who joined a debate.
 */

const ROSTER = [
  { key: "call_claude", display: "Claude Sonnet 4.5", model: "anthropic/claude-sonnet-4.5" },
  { key: "call_gemini", display: "Gemini 2.5 Pro", model: "google/gemini-2.5-pro" },
  { key: "call_deepseek", display: "DeepSeek V3.1 Terminus", model: "deepseek/deepseek-v3.1-terminus" },
  { key: "call_qwen", display: "Qwen3 Max Thinking", model: "qwen/qwen3-max" },
  { key: "call_gpt", display: "GPT-5.1", model: "openai/gpt-5.1" },
  { key: "call_oneseek", display: "OneSeek Research", model: "openai/gpt-4.1-mini", oneseek: true },
];
const LONG_NAMES = JSON.stringify(ROSTER);

const WIDTHS = [390, 1280, 1400];

/** Where a participant is named: a card's header, a verdict table's row. */
const NAMES = ".card h3, .verdicts tbody th";
const QUESTION = "Which database should a small shop use?";

/** Cards (of `cards`) whose dot is not beside the first line of their name, named by it. */
async function strayDots(page: Page, cards: string): Promise<string[]> {
  return page.evaluate(
    (names) =>
      [...document.querySelectorAll<HTMLElement>(names)].flatMap((h3) => {
        const dot = h3.previousElementSibling!.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(h3);
        const first = [...range.getClientRects()].find((r) => r.width > 0);
        const middle = dot.top + dot.height / 2;
        return first && (middle < first.top || middle > first.bottom) ? [`the dot of "${h3.textContent}"`] : [];
      }),
    `${cards} header > .dot + h3`,
  );
}

/**
 * What is wrong with the headers of the cards `cards` matches: names broken inside a word (and in
 * `names`, by default the verdict tables' too), parts outside their card, dots apart from their name.
 */
async function headerFaults(page: Page, cards = ".card", names = `${cards} h3, .verdicts tbody th`): Promise<string[]> {
  return [...(await brokenWords(page, names)), ...(await outsideTheirBox(page, ".card", `${cards} header > *`)), ...(await strayDots(page, cards))];
}

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

  /** Runs `check` on the page at each width, in a fresh browser context (nothing remembered between them). */
  async function atEveryWidth(check: (page: Page, width: number) => Promise<void>): Promise<void> {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(url);
        await check(page, width);
      } finally {
        await context.close();
      }
    }
  }

  /** Sends `message` from the message box. */
  async function ask(page: Page, message: string): Promise<void> {
    await page.locator("#message").fill(message);
    await page.locator("#message").press("Enter");
  }

  /** Waits until the run's stream has ended (Stop gives way to Send). */
  const ended = (page: Page) => page.locator("button.stop").waitFor({ state: "detached", timeout: 120_000 });

  for (const id of FORMAT_IDS.filter((f) => f !== "dvoice"))
    it(`${FORMATS[id].command}: no name broken inside a word nor a header outside its card, while it runs and at its end, at ${WIDTHS.join(", ")} px`, async () => {
      await atEveryWidth(async (page, width) => {
        await ask(page, `${FORMATS[id].command} ${QUESTION}`);
        // While it runs (a card with its badges), and once it has ended. /moa folds a layer away once
        // the next one starts (on a busy machine, before the first look), so its names are waited for
        // in the page, and at the end every folded layer is opened: a reader can open it too.
        await page.locator(NAMES).first().waitFor({ state: "attached", timeout: 60_000 });
        const during = await headerFaults(page);
        await ended(page);
        await page.evaluate(() => document.querySelectorAll<HTMLDetailsElement>("details.round").forEach((d) => (d.open = true)));
        const after = await headerFaults(page);
        expect({ width, during, after }).toEqual({ width, during: [], after: [] });
      });
    });

  it(`/dvoice: no name broken beside the "speaking now" badge, at ${WIDTHS.join(", ")} px`, async () => {
    await atEveryWidth(async (page, width) => {
      // Not paced: the names are what is checked, not the minutes of speech the text would wait for.
      await ask(page, `/dvoice --paced off ${QUESTION}`);
      // The card of the participant being heard, with its badge (the local voice plays it in the page).
      const heard = await page.waitForFunction(() => document.querySelector(".card.heard:has(.badge.voice) h3")?.textContent, undefined, { timeout: 90_000 });
      const speaker = await heard.jsonValue();
      const speaking = await headerFaults(page);
      await ended(page);
      const after = await headerFaults(page);
      expect(ROSTER.map((p) => p.display)).toContain(speaker);
      expect({ width, speaking, after }).toEqual({ width, speaking: [], after: [] });
    });
  });

  it(`/revise: its second round's cards keep their names whole and every badge inside the card, at ${WIDTHS.join(", ")} px`, async () => {
    await atEveryWidth(async (page, width) => {
      await ask(page, `/revise ${QUESTION}`);
      // A revision in, with its decision and its change in words; then the vote's labels on every card.
      const revised = ".revisions .card";
      await page.locator(`${revised} .words`).first().waitFor({ timeout: 60_000 });
      const during = await headerFaults(page, revised);
      await ended(page);
      const after = await headerFaults(page, revised);
      const cards = await page.locator(`${revised}.revision`).count();
      const badges = await page.locator(`${revised} header .badge, ${revised} header .words`).count();
      // Each card: its label and votes, its decision, its change in words.
      expect({ width, cards, badges, during, after }).toEqual({ width, cards: 6, badges: 18, during: [], after: [] });
    });
  });

  for (const name of ["Ada Lovelace-Byron", "Ada"])
    it(`/debatt --with-me: the seat of "${name}" keeps the name whole beside its badges, at ${WIDTHS.join(", ")} px`, async () => {
      await atEveryWidth(async (page, width) => {
        await page.locator("#message").fill(`/debatt --with-me ${QUESTION}`);
        await page.locator(".composer .person-name").fill(name);
        await page.locator("#message").press("Enter");
        // The person's turn: their seat with "you" and "waiting for you".
        const seat = page.locator(".card.person");
        await seat.locator(".badge:not(.person)").waitFor({ timeout: 60_000 });
        const shown = await seat.locator("h3").innerText();
        const faults = await headerFaults(page, ".card.person");
        await page.locator("button.stop").click();
        await ended(page);
        expect({ width, shown, faults }).toEqual({ width, shown: name, faults: [] });
      });
    });
});
