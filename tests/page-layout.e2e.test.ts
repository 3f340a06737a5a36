import { existsSync } from "node:fs";
import { build } from "vite";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServerProcess } from "./support/server-process.js";
import { postChat, readSse } from "./support/http.js";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn("page-layout.e2e.test.ts: SKIPPED — Debian's chromium is not installed (apt-get install -y chromium)");

const ADMIN_TOKEN = "admin-token-0123456789";
/** A phone's width. */
const PHONE = { width: 375, height: 800 };

describe.skipIf(!haveChromium)(`the page's layout in a real browser${haveChromium ? "" : " (skipped: chromium is not installed)"}`, () => {
  let browser: Browser;
  const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];

  beforeAll(async () => {
    await build({ configFile: "vite.config.ts", logLevel: "error" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--headless"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.child.kill("SIGKILL");
      await s.exited;
    }
  });

  /** A fresh server on the simulated models and an English page on it, collecting console errors. */
  async function open(env: Record<string, string> = {}, viewport = { width: 1280, height: 900 }) {
    const server = await startServerProcess({ SIMULATED_LATENCY_MS: "5", ...env });
    servers.push(server);
    const page = await browser.newPage({ viewport, locale: "en-US" });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url);
    return { page, errors, server };
  }

  async function ask(page: Page, text: string) {
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 30_000 });
    await page.locator("#message").fill(text);
    await page.keyboard.press("Enter");
  }

  /** How far the page reaches past the viewport's width, and whether every "Key points" cell is inside it. */
  const layout = (page: Page) =>
    page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      points: Array.from(document.querySelectorAll<HTMLElement>(".deep .stances tbody td:nth-child(5)")).map((td) => {
        const r = td.getBoundingClientRect();
        return { shown: r.width > 0 && r.height > 0, inside: r.left >= 0 && r.right <= window.innerWidth };
      }),
    }));

  it("/deep on a 375 px phone fits the screen, key points included, live and reopened from #history", async () => {
    const { page, errors } = await open({}, PHONE);
    const home = page.url().split("#")[0];
    for (const question of ["/deep Should we tax sugar?", "/deep Should Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch tax sugar?"]) {
      await page.goto(home);
      await ask(page, question);
      await page.locator(".deep .synthesis h2").first().waitFor({ timeout: 30_000 });
      await page.locator("button.stop").waitFor({ state: "detached", timeout: 30_000 });
      const live = await layout(page);
      expect(live.scrollWidth, `${question}, live`).toBeLessThanOrEqual(PHONE.width);
      expect(live.points.length).toBeGreaterThan(0);
      expect(live.points.every((p) => p.shown && p.inside), `${question}, live: key points on screen`).toBe(true);
      // Each stacked cell still says which column it is.
      expect(await page.locator(".deep .stances tbody td").first().evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Stance: "');

      await page.goto(`${home}#history`);
      await page.locator(".conversations li a").first().click();
      await page.locator(".deep .synthesis h2").first().waitFor();
      const reopened = await layout(page);
      expect(reopened.scrollWidth, `${question}, reopened`).toBeLessThanOrEqual(PHONE.width);
      expect(reopened.points.length).toBe(live.points.length);
      expect(reopened.points.every((p) => p.shown && p.inside), `${question}, reopened: key points on screen`).toBe(true);
    }
    // On a wide screen the rounds stay a table.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator(".deep .stances thead th").first().isVisible()).toBe(true);
    expect(await page.locator(".deep .stances tbody td").first().evaluate((td) => getComputedStyle(td).display)).toBe("table-cell");
    expect(errors).toEqual([]);
  }, 45_000);

  it("admin: signed in, the token form is gone (sign-out instead), the voices are the server's roster, without an empty box", async () => {
    const roster = JSON.stringify([
      { key: "call_alpha", display: "Alpha", model: "vendor/alpha-1" },
      { key: "call_beta", display: "Beta", model: "vendor/beta-1", voice: "onyx" },
    ]);
    const { page, errors } = await open({ ADMIN_TOKEN, DEBATE_PARTICIPANTS: roster });
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    const voices = page.locator(".voice-settings fieldset label");
    await voices.first().waitFor();

    expect(await page.getByLabel("Admin token").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    // The configured roster, each with its voice (Beta's own, Alpha the fallback), not the default eight.
    expect(await voices.evaluateAll((ls) => ls.map((l) => l.firstChild!.textContent))).toEqual(["Alpha", "Beta"]);
    expect(await page.getByLabel("Beta").inputValue()).toBe("onyx");
    expect(await page.getByLabel("Alpha").inputValue()).toBe("alloy");
    // The box is as tall as its rows, nothing more.
    const gap = await page.locator(".voice-settings fieldset").evaluate((fs) => fs.getBoundingClientRect().bottom - fs.querySelector("label:last-of-type")!.getBoundingClientRect().bottom);
    expect(gap).toBeLessThan(30);
    // One prompt is "1 prompt".
    expect(await page.locator('details[data-group="compare"] summary').innerText()).toBe("/compare 1 prompt");

    // A voice for a roster participant is saved (the roster the server sent is not sent back as a setting).
    await page.getByLabel("Alpha").selectOption("echo");
    await page.getByRole("button", { name: "Save the voice settings" }).click();
    await page.locator(".voice-settings .ok").waitFor();
    await page.reload();
    await voices.first().waitFor();
    expect(await page.getByLabel("Admin token").count()).toBe(0);
    expect(await page.getByLabel("Alpha").inputValue()).toBe("echo");

    // Signing out asks for the token again.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Admin token").waitFor();
    expect(await page.locator(".voice-settings").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 30_000);

  it("#history shows when each conversation was started, the order it is listed in", async () => {
    const { page, errors, server } = await open();
    const chat = async (threadId: string, message: string) => {
      const res = await postChat(server.url, { message, threadId });
      expect(res.status).toBe(200);
      await readSse(res);
    };
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // "first" is started before "second" but answered again after it: its last activity is the newest.
    await chat("first", "Hello, first conversation");
    await sleep(1_100);
    await chat("second", "Hello, second conversation");
    await sleep(1_100);
    await chat("first", "And a follow-up");
    const listed = (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as { conversations: { id: string; createdAt: string; updatedAt: string }[] };
    expect(listed.conversations.map((c) => c.id)).toEqual(["second", "first"]);

    await page.goto(`${page.url().split("#")[0]}#history`);
    const rows = page.locator(".conversations li");
    await rows.nth(1).waitFor();
    const shown = await rows.evaluateAll((lis) => lis.map((li) => li.querySelector(".note")!.textContent!));
    // The page's own way of writing a time (English → en-GB), for the times the server gave.
    const written = (iso: string) => page.evaluate((at) => new Date(at).toLocaleString("en-GB"), iso);
    for (const [i, c] of listed.conversations.entries()) expect(shown[i]).toContain(await written(c.createdAt));
    const first = listed.conversations[1];
    expect(Date.parse(first.updatedAt) - Date.parse(first.createdAt)).toBeGreaterThan(2_000);
    expect(shown[1]).not.toContain(await written(first.updatedAt));
    // So the times read in order: newest first.
    const times = await rows.locator("time").evaluateAll((ts) => ts.map((t) => Date.parse(t.getAttribute("datetime")!)));
    expect(times).toHaveLength(2);
    expect(times[0]).toBeGreaterThan(times[1]);
    expect(errors).toEqual([]);
  }, 30_000);
});
