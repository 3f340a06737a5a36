import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_IDS, FORMATS, type FormatId } from "../state/formats.js";
import { accessibilityViolations, ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, haveChromium } from "./support/browser.js";
import { serverProcesses } from "./support/server-process.js";

/**
 * The page as a product, in a real browser: every format run from the landing's offer to its end,
 * on a laptop and on a phone, in the light and the dark theme. At the end the result is in view,
 * nothing is wider than the screen, no control keeps the browser's default look and axe finds no
 * violation; a screenshot of each end is kept in tests/artifacts (the README's is one of them).
 * Then the live view's following, and a reader's own turn taking the stage.
 */

const SIZES = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ["light", "dark"] as const;
/** A roster of two models, for a short debate the reader joins. */
const TWO_MODELS = JSON.stringify([
  { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
  { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5" },
]);

/** Where the newest answer's result is, against the window and the message box. */
async function resultPlace(page: Page) {
  return page.evaluate(() => {
    const answers = document.querySelectorAll("[data-answer]");
    const result = answers[answers.length - 1]?.querySelector("[data-result]");
    const box = document.querySelector(".composer")?.getBoundingClientRect();
    const r = result?.getBoundingClientRect();
    return { found: Boolean(result), top: r?.top ?? NaN, bottom: r?.bottom ?? NaN, visibleBottom: box && box.height > 0 ? box.top : innerHeight };
  });
}

/** Whether the newest answer's result begins between the top of the window and the message box. */
async function resultInView(page: Page): Promise<boolean> {
  const p = await resultPlace(page);
  return p.found && p.top >= 0 && p.top < p.visibleBottom - 24;
}

/** Elements wider than the window, or reaching past its right edge (outside a scrolling box), named by tag and class. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`the page (${document.documentElement.scrollWidth} > ${width})`);
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 1) continue;
      // Inside a box that scrolls or clips sideways (a wide table), or hidden for the eye only.
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const o = getComputedStyle(up).overflowX;
        if (o !== "visible") clipped = true;
      }
      if (!clipped) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} (right ${Math.round(r.right)} > ${width})`);
    }
    return out.slice(0, 5);
  });
}

/** Vote bars whose colour is none of the cards' (each participant keeps one colour, on its card and its bar). */
async function strayBarColours(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cards = new Set([...document.querySelectorAll(".card")].map((c) => getComputedStyle(c).borderLeftColor));
    return [...document.querySelectorAll<HTMLElement>(".bars li")]
      .filter((li) => Number(li.querySelector(".count")?.textContent ?? "0") > 0)
      .map((li) => [li.dataset.votesFor ?? "", getComputedStyle(li.querySelector(".fill")!).backgroundColor])
      .filter(([, colour]) => !cards.has(colour))
      .map(([who, colour]) => `${who}: ${colour}`);
  });
}

/** Visible controls still drawn the browser's way: native appearance, its font size, or no accent colour on a checkbox. */
async function defaultLookingControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("button, select, input, textarea")) {
      if (el.offsetParent === null && getComputedStyle(el).position !== "fixed") continue;
      const s = getComputedStyle(el);
      const name = `${el.tagName.toLowerCase()}${el.className ? `.${el.className.split(" ").join(".")}` : ""}${el.getAttribute("type") ? `[${el.getAttribute("type")}]` : ""}`;
      const box = el instanceof HTMLInputElement && ["checkbox", "radio", "range"].includes(el.type);
      if (box ? s.accentColor === "auto" : s.appearance !== "none") out.push(`${name}: appearance ${s.appearance}, accent ${s.accentColor}`);
      // Chromium's own size for a control's text (13.333px): the page's type scale was not applied.
      if (s.fontSize === "13.3333px") out.push(`${name}: font-size ${s.fontSize}`);
      if (s.fontFamily === "system-ui" && el.tagName !== "INPUT") out.push(`${name}: font ${s.fontFamily}`);
    }
    return out;
  });
}

describe.skipIf(!haveChromium)(`the page as a product${haveChromium ? "" : " (skipped: chromium is not installed)"}`, () => {
  let browser: Browser;
  const start = serverProcesses();
  let url = "";

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // 36 runs from one reader within minutes: more than the default 30 a minute allows.
    url = (await start({ SIMULATED_LATENCY_MS: "5", SIMULATED_CHUNK_DELAY_MS: "2", RUNS_PER_MINUTE: "1000" })).url;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A page on the server at a size and in a theme, collecting its errors. */
  async function open(size: keyof typeof SIZES, theme: (typeof THEMES)[number], server = url, locale = "en-US") {
    const context = await browser.newContext({ viewport: SIZES[size], colorScheme: theme, locale });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server);
    return { page, errors, close: () => context.close() };
  }

  /** The landing's offer for a format: its button, which fills the message box. */
  const offer = (page: Page, id: FormatId) => page.locator(".offer", { has: page.locator("code", { hasText: new RegExp(`^${FORMATS[id].command}$`) }) });

  for (const id of FORMAT_IDS)
    it(`${FORMATS[id].command}: started from the landing, ends with its result in view, at both sizes and in both themes`, async () => {
      for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[])
        for (const theme of THEMES) {
          // Both languages: the light theme in English, the dark one in Swedish.
          const { page, errors, close } = await open(size, theme, url, theme === "light" ? "en-US" : "sv-SE");
          const where = `${id} ${size} ${theme}`;
          // The landing says what debatt does and offers every format.
          expect(await page.locator(".landing .lede").innerText(), where).toMatch(theme === "light" ? /AI models/ : /AI-modeller/);
          expect(await page.locator(".offer").count(), where).toBe(FORMAT_IDS.length);
          if (id === FORMAT_IDS[0]) {
            await page.locator(".suggestions").waitFor({ timeout: 5_000 });
            expect(await overflowing(page), `${where}: the landing`).toEqual([]);
            await page.screenshot({ path: `${ARTIFACTS}/page-landing-${size}-${theme}.png` });
          }
          await offer(page, id).click();
          expect(await page.locator("#message").inputValue(), where).toMatch(new RegExp(`^${FORMATS[id].command} \\S`));
          // The local voice paces a spoken debate's text to its audio, minutes of it: not what this test reads.
          if (id === "dvoice") await page.locator("#message").fill((await page.locator("#message").inputValue()).replace(/^\/dvoice /, "/dvoice --paced off "));
          await page.locator("#message").press("Enter");
          await page
            .locator("button.stop")
            .waitFor({ state: "attached", timeout: 10_000 })
            .catch(() => {});
          await page.locator("button.stop").waitFor({ state: "detached", timeout: 90_000 });
          await page.locator("[data-answer] [data-result]").first().waitFor({ timeout: 10_000 });
          expect(await resultPlace(page).then((p) => p.found), `${where}: a result`).toBe(true);
          expect(await resultInView(page), `${where}: the result in view ${JSON.stringify(await resultPlace(page))}`).toBe(true);
          if (id === "rank") {
            // llm-council's second stage: each ranker's evaluation (folded, its labels named once the
            // authors are known) and who ranked whom, every answer placed by every ranker.
            const evaluations = page.locator(".rank details.evaluation");
            const rankers = await evaluations.count();
            expect(rankers, where).toBeGreaterThan(1);
            await evaluations.first().locator("summary").click();
            expect(await evaluations.first().innerText(), where).toMatch(/Response [A-Z] \(\S/);
            expect(await page.locator(".rank-matrix tbody tr").count(), where).toBe(rankers);
            const answers = await page.locator(".rank-matrix thead th").count();
            expect(await page.locator(".rank-matrix tbody td[data-place]").count(), where).toBe(rankers * (answers - 1));
          }
          // Each list is named in the failure, whole.
          const problems = {
            overflowing: await overflowing(page),
            defaultLooking: await defaultLookingControls(page),
            strayBarColours: await strayBarColours(page),
            axe: await accessibilityViolations(page),
            errors,
          };
          await page.screenshot({ path: `${ARTIFACTS}/page-${id}-${size}-${theme}.png` });
          // The README's picture: a whole debate, from its question to its synthesis (web/arena.png is a copy).
          if (id === "debatt" && size === "laptop" && theme === "light") await page.screenshot({ path: `${ARTIFACTS}/page-debatt-whole.png`, fullPage: true });
          expect(problems, where).toEqual({ overflowing: [], defaultLooking: [], strayBarColours: [], axe: [], errors: [] });
          await close();
        }
    }, 300_000);

  // Its steps race a live run (which card speaks when the reader scrolls): a run that happens to
  // defeat a step is tried again, rather than the check weakened.
  it(
    "follows a run while the reader stays at the end, stops when they scroll up, and offers the way back and to the result",
    { timeout: 180_000, retry: 2 },
    async () => {
      // Slow enough that the run is still going through every step below (a faster machine ended it first).
      const server = await start({ SIMULATED_LATENCY_MS: "300", SIMULATED_CHUNK_DELAY_MS: "15" });
      const { page, errors, close } = await open("phone", "light", server.url);
      await page.locator("#message").fill("/debatt Should cities ban cars?");
      await page.locator("#message").press("Enter");
      // Following: the page scrolls by itself to the card being written, down the column of cards.
      await page.waitForFunction(() => scrollY > 1200, undefined, { timeout: 60_000 });
      // The bottom of the card being written (where its newest text is) is on screen; between two turns, no card is.
      const busyInView = () =>
        page.evaluate(() => {
          const busy = document.querySelector('.card[aria-busy="true"]');
          if (!busy) return null;
          const r = busy.getBoundingClientRect();
          return r.bottom > 0 && r.bottom <= innerHeight;
        });
      const followed = () =>
        page.waitForFunction(
          () => {
            const busy = document.querySelector('.card[aria-busy="true"]');
            return busy !== null && busy.getBoundingClientRect().bottom > 0 && busy.getBoundingClientRect().bottom <= innerHeight;
          },
          undefined,
          { timeout: 10_000 },
        );
      await followed();
      expect(await busyInView()).not.toBe(false);
      // The reader scrolls up, away from the text being written: the page stays where they are and offers to follow again.
      await page.mouse.move(200, 300);
      await page.mouse.wheel(0, -10_000);
      const jump = page.locator("button.jump");
      await jump.waitFor({ timeout: 10_000 });
      expect(await jump.innerText()).toContain("Follow the run");
      const held = await page.evaluate(() => scrollY);
      await page.waitForTimeout(1500);
      expect(Math.abs((await page.evaluate(() => scrollY)) - held)).toBeLessThan(5);
      // "Follow the run" takes them back to the text being written, and the page follows it again.
      await jump.click();
      expect(await jump.count()).toBe(0);
      await followed();
      expect(await jump.count()).toBe(0);
      // Away once more, from a card far down the column (a card near the top would still be in view
      // at the top of the page, and the page rightly go on following it): the end is then offered rather than forced.
      await page.waitForFunction(() => scrollY > 1200, undefined, { timeout: 60_000 });
      // Up by a screen and a half: the card being written, and the one after it, are then below the window.
      await page.mouse.wheel(0, -1.5 * 844);
      await jump.waitFor({ timeout: 10_000 });
      // At the end the result is offered, not forced on a reader who is reading elsewhere…
      await page.locator("button.stop").waitFor({ state: "detached", timeout: 120_000 });
      await page.locator("button.jump", { hasText: "Jump to the result" }).waitFor({ timeout: 10_000 });
      expect(await resultInView(page)).toBe(false);
      // …and one press brings it into view, with the focus.
      await page.locator("button.jump").click();
      expect(await resultInView(page)).toBe(true);
      expect(await page.locator("button.jump").count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.hasAttribute("data-result"))).toBe(true);
      expect(errors).toEqual([]);
      await close();
    },
  );

  it("keeps the message box whole when it offers to take part, offers no export without a run, and links every page from every page", async () => {
    const { page, errors, close } = await open("phone", "light");
    // Typing /debatt offers "Take part yourself" on a row of its own: the microphone stays a button, Send beside it.
    await page.locator("#message").fill("/debatt Should cities ban cars?");
    await page.getByLabel("Take part yourself").waitFor();
    const box = await page.evaluate(() => {
      const rect = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
      return { mic: rect(".composer .mic"), send: rect(".composer button[type=submit]"), text: rect("#message") };
    });
    expect(box.mic.width).toBeLessThan(60);
    expect(Math.abs(box.send.bottom - box.text.bottom)).toBeLessThan(4);
    expect(Math.abs(box.mic.bottom - box.text.bottom)).toBeLessThan(4);
    // A command without its topic gets its usage, and nothing to export or share: no run was stored.
    await page.locator("#message").fill("/debatt");
    await page.locator("#message").press("Enter");
    await page.locator(".usage").waitFor();
    await page.locator('[data-answer][aria-busy="false"]').waitFor();
    expect(await page.locator(".run-menu").count()).toBe(0);
    // A stored run's downloads are named by the conversation and the format.
    await page.locator("#message").fill("/compare Tea or coffee?");
    await page.locator("#message").press("Enter");
    await page.locator(".run-menu").waitFor({ timeout: 30_000 });
    const names = await page.locator(".run-menu .export-link").evaluateAll((links) => links.map((a) => a.getAttribute("download")));
    expect(names).toEqual([expect.stringMatching(/^debatt-.+\.md$/), expect.stringMatching(/^debatt-.+\.json$/), expect.stringMatching(/^debatt-.+\.html$/)]);
    // Every page has the header that links every page, the current one marked.
    for (const hash of ["#history", "#leaderboard", "#evidence", "#admin", "#"]) {
      await page.goto(`${url}/${hash}`);
      const nav = page.getByRole("navigation", { name: "Pages" });
      await nav.waitFor();
      const links = await nav.locator("a").evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.getAttribute("aria-current")]));
      for (const target of ["#", "#history", "#leaderboard", "#evidence", "#admin"])
        expect(
          links.some(([href]) => href === target),
          `${hash} → ${target}`,
        ).toBe(true);
      const current = links.filter(([, c]) => c === "page").map(([href]) => href);
      expect(current.length, hash).toBeGreaterThan(0);
      expect(
        current.every((href) => href === hash),
        hash,
      ).toBe(true);
    }
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it("on a touch phone: the landing leaves the page to the formats, and one tap on a format and one on Send start its run", async () => {
    const context = await browser.newContext({ viewport: SIZES.phone, hasTouch: true, isMobile: true, locale: "en-US" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.locator(".offer").first().waitFor();
    // Before anything is written, the box is one line: at most an eighth of the window.
    const box = () => page.locator(".composer").evaluate((el) => el.getBoundingClientRect().height);
    expect(await box()).toBeLessThanOrEqual(SIZES.phone.height / 8);
    await offer(page, "vote").tap();
    expect(await page.locator("#message").inputValue()).toMatch(/^\/vote \S/);
    // One tap on Send: the box does not move away from under the finger, and the run starts.
    await page.locator(".composer button[type=submit]").tap();
    await page.locator("[data-answer]").first().waitFor({ timeout: 10_000 });
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[])
    it(`on a ${size}: the message box leaves the page to the runs, what the reader opens and a reply's end come into view, each format its own conversation, every page in the header`, async () => {
      const server = await start({ SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", DEBATE_PARTICIPANTS: TWO_MODELS });
      const { page, errors, close } = await open(size, "light", server.url);
      const send = async (text: string) => {
        const answered = await page.locator('[data-answer][aria-busy="false"]').count();
        await page.locator("#message").fill(text);
        await page.locator("#message").press("Enter");
        // Its answer has ended: one more ended answer than before, and no run going on.
        await page.waitForFunction(
          (n) => document.querySelectorAll('[data-answer][aria-busy="false"]').length > n && !document.querySelector("button.stop"),
          answered,
          { timeout: 60_000 },
        );
      };
      await send("/debatt Should cities ban cars?");
      // After a run the box and its hint take at most a sixth of a laptop's window, an eighth of a phone's.
      const boxHeight = await page.locator(".composer").evaluate((el) => el.getBoundingClientRect().height);
      expect(boxHeight, `${size}: the message box`).toBeLessThanOrEqual(SIZES[size].height / (size === "laptop" ? 6 : 8));
      // "Export and share", opened at the page's end, opens above the message box, not under it.
      const menu = page.locator(".run-menu").last();
      await menu.locator("summary").click();
      await page.waitForFunction(() => {
        const m = [...document.querySelectorAll("details.run-menu")].at(-1)!.getBoundingClientRect();
        return m.bottom <= document.querySelector(".composer")!.getBoundingClientRect().top + 1;
      });
      // The read-only link, shown only once, comes into view above the box too, with its note, selected for copying.
      await menu.getByRole("button", { name: "Make a read-only link" }).click();
      await page.waitForFunction(() => {
        const m = [...document.querySelectorAll("details.run-menu")].at(-1)!;
        const link = m.querySelector(".share-link");
        return (
          link !== null &&
          document.activeElement === link &&
          m.getBoundingClientRect().bottom <= document.querySelector(".composer")!.getBoundingClientRect().top + 1
        );
      });
      // A new format's command starts a new conversation; a question without one goes on in the debate's.
      await send("What did they agree on?");
      // The reply's last line ends above the message box, not half under it; a reply taller than the
      // room above the box shows its start instead (a reader reads from the top).
      await page.waitForFunction(
        () => {
          const answer = [...document.querySelectorAll("[data-answer]")].at(-1)!.getBoundingClientRect();
          const reply = [...document.querySelectorAll("[data-answer] .chat")].at(-1)!.getBoundingClientRect();
          const room = document.querySelector(".composer")!.getBoundingClientRect().top;
          return answer.bottom <= room + 1 || (answer.height > room && reply.top >= -1 && reply.top < 48);
        },
        undefined,
        { timeout: 30_000 },
      );
      // A chat reply is Markdown rendered: its list is a list, its commands code, no backtick left as text.
      const reply = page.locator("[data-answer] .chat").last();
      expect(await reply.locator("li code").count(), size).toBeGreaterThan(0);
      expect(await reply.innerText(), size).not.toContain("`");
      await send("/compare Tea or coffee?");
      const listed = await page.evaluate(async () => {
        const { conversations } = (await (await fetch("/api/v1/conversations")).json()) as {
          conversations: { id: string; title: string | null; mode: string }[];
        };
        const runs = await Promise.all(
          conversations.map(
            async (c) => ((await (await fetch(`/api/v1/conversations/${c.id}`)).json()) as { messages: { role: string; content: string }[] }).messages,
          ),
        );
        return runs.map((messages) => messages.filter((m) => m.role === "user").map((m) => m.content)).sort((a, b) => a[0].localeCompare(b[0]));
      });
      expect(listed, size).toEqual([["/compare Tea or coffee?"], ["/debatt Should cities ban cars?", "What did they agree on?"]]);
      // On a phone too, the header reaches every page without scrolling sideways.
      const nav = await page.getByRole("navigation", { name: "Pages" }).evaluate((el) => ({
        scrolls: el.scrollWidth > el.clientWidth,
        outside: [...el.querySelectorAll("a")]
          .filter((a) => getComputedStyle(a).display !== "none" && a.getBoundingClientRect().right > innerWidth)
          .map((a) => a.textContent),
      }));
      expect(nav, size).toEqual({ scrolls: false, outside: [] });
      expect(errors).toEqual([]);
      await close();
    }, 240_000);

  for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[])
    it(`gives a reader's turn the stage on a ${size}: their panel in view, the message box aside, the others' votes hidden until they vote`, async () => {
      const server = await start({ SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", DEBATE_PARTICIPANTS: TWO_MODELS });
      const { page, errors, close } = await open(size, "light", server.url);
      await page.locator("#message").fill("/debatt --with-me Should cities ban cars?");
      await page.locator("#message").press("Enter");
      const panel = page.locator("form.person-input");
      const panelInView = () =>
        panel.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= innerHeight;
        });
      for (const round of [1, 2, 3]) {
        await panel.getByRole("heading", { name: new RegExp(`round ${round}`) }).waitFor({ timeout: 30_000 });
        expect(await panelInView(), `round ${round}`).toBe(true);
        // The message box steps aside: a line saying why, and Stop.
        expect(await page.locator("#message").count(), `round ${round}`).toBe(0);
        expect(await page.locator(".composer.aside button.stop").isVisible(), `round ${round}`).toBe(true);
        expect(await page.evaluate(() => document.activeElement?.closest("form.person-input") !== null)).toBe(true);
        await panel.getByRole("button", { name: "Pass" }).click();
      }
      await panel.getByRole("heading", { name: "Your vote" }).waitFor({ timeout: 30_000 });
      expect(await panelInView()).toBe(true);
      // The models' votes are in (the note counts them), and wait for the reader's.
      await page.locator(".votes-hidden:not([data-votes='0'])").waitFor({ timeout: 30_000 });
      expect(await page.locator(".votes .bars").count()).toBe(0);
      expect(await page.locator(".ballots").count()).toBe(0);
      await panel.getByLabel("Claude").check();
      await panel.getByRole("button", { name: "Vote" }).click();
      await page.locator(".winner").waitFor({ timeout: 60_000 });
      expect(await page.locator(".votes .bars").count()).toBe(1);
      expect(await page.locator("#message").isVisible()).toBe(true);
      expect(await resultInView(page)).toBe(true);
      await page.screenshot({ path: `${ARTIFACTS}/page-with-me-${size}.png` });
      expect(errors).toEqual([]);
      await close();
    }, 120_000);
});
