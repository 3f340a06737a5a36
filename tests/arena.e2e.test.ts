import { existsSync, mkdirSync } from "node:fs";
import { build } from "vite";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServerProcess } from "./support/server-process.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = "tests/artifacts";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn("arena.e2e.test.ts: SKIPPED — Debian's chromium is not installed (apt-get install -y chromium)");

describe.skipIf(!haveChromium)(`the arena page in a real browser${haveChromium ? "" : " (skipped: chromium is not installed)"}`, () => {
  let browser: Browser;
  const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];

  beforeAll(async () => {
    await build({ configFile: "vite.config.ts", logLevel: "error" });
    mkdirSync(ARTIFACTS, { recursive: true });
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

  /** A fresh server on the simulated provider and a page on it, collecting console errors. */
  async function open(env: Record<string, string> = {}, viewport = { width: 1280, height: 900 }) {
    const server = await startServerProcess({ SIMULATED_LATENCY_MS: "20", ...env });
    servers.push(server);
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url);
    return { page, errors, server };
  }

  async function ask(page: Page, text: string) {
    await page.getByLabel("Meddelande").fill(text);
    await page.keyboard.press("Enter");
  }

  it("renders a whole /debatt live: every participant, four rounds, the votes and the winner", async () => {
    const { page, errors } = await open();

    await ask(page, "/debatt Bör AI regleras?");
    await page.locator(".card.speaking").first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/arena-mid-debate.png`, fullPage: true });
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.locator(".synthesis").waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/arena-result.png`, fullPage: true });

    expect(await page.locator(".card").count()).toBe(8);
    expect(await page.locator(".tab.done").count()).toBe(4);
    expect(await page.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
    expect(await page.locator(".ballots > li").count()).toBe(8);
    expect(await page.locator(".ballots > li").first().locator("li").count()).toBe(3);
    expect(await page.locator(".winner").innerText()).toMatch(/Vinnare: \S+ med \d+ röster/);
    expect(await page.locator(".synthesis").innerText()).not.toContain("debate-arena-data");
    for (const card of await page.locator(".card").all()) expect(await card.locator("footer").innerText()).toMatch(/\d+ ord/);
    expect(errors).toEqual([]);
  }, 90_000);

  it("fits a phone-width screen", async () => {
    const { page, errors } = await open({}, { width: 390, height: 844 });
    await ask(page, "/debatt Ska skolan ha mobilförbud?");
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${ARTIFACTS}/arena-phone.png`, fullPage: true });

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  }, 90_000);

  it("shows an error and offers a retry when the stream drops", async () => {
    const { page, server } = await open({ SIMULATED_LATENCY_MS: "300" });
    await ask(page, "/debatt Tappad ström");
    await page.locator(".card.speaking").first().waitFor();
    server.child.kill("SIGKILL");

    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/stream|server/i);
    expect(await alert.getByRole("button", { name: "Försök igen" }).isVisible()).toBe(true);
  }, 60_000);
});
