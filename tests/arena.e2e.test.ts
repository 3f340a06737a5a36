import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_IDS } from "../state/formats.js";
import { accessibilityViolations as axeViolations, ARTIFACTS, brokenWords, CHROMIUM, CHROMIUM_ARGS, haveChromium } from "./support/browser.js";
import { debater } from "./support/debater.js";
import { startFakeOpenAI, startFakeSpeech, startFakeTranscription } from "./support/fake-servers.js";
import { startServerProcess } from "./support/server-process.js";
import { postChat, readSse } from "./support/http.js";

const LAYOUT_ADMIN_TOKEN = "admin-token-0123456789";
/** A phone's width. */
const PHONE = { width: 375, height: 800 };
/** A roster of two models, for a short debate the reader joins. */
const TWO_MODELS = JSON.stringify([
  { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
  { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5" },
]);
if (!haveChromium) console.warn("arena.e2e.test.ts: SKIPPED — Debian's chromium is not installed (apt-get install -y chromium)");

describe.skipIf(!haveChromium)(`the arena page in a real browser${haveChromium ? "" : " (skipped: chromium is not installed)"}`, () => {
  let browser: Browser;
  const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    for (const s of servers.splice(0)) {
      s.child.kill("SIGKILL");
      await s.exited;
    }
  });

  /** A fresh server on the simulated provider and a page on it, collecting console errors. */
  async function open(env: Record<string, string> = {}, viewport = { width: 1280, height: 900 }, locale = "sv-SE") {
    const server = await startServerProcess({ SIMULATED_LATENCY_MS: "20", ...env });
    servers.push(server);
    const page = await browser.newPage({ viewport, locale });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url);
    return { page, errors, server };
  }

  /** Serious and critical WCAG violations found by axe-core (labels, contrast, roles, …). */
  const accessibilityViolations = (page: Page) => axeViolations(page, ["wcag2a", "wcag2aa"], ["serious", "critical"]);

  async function ask(page: Page, text: string) {
    // A message sent while a run is still streaming is not taken: wait until the page takes one.
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    await page.locator("#message").fill(text);
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
    // A collapsed card shows whole lines only, not a sliver of the next one.
    const clipped = await page
      .locator(".answer.clipped")
      .first()
      .evaluate((el) => {
        // One line of the same text style, measured.
        const probe = el.cloneNode() as HTMLElement;
        probe.className = "answer";
        probe.textContent = "x";
        el.parentElement!.appendChild(probe);
        const line = probe.getBoundingClientRect().height;
        probe.remove();
        return { height: el.getBoundingClientRect().height, line };
      });
    expect(clipped.height / clipped.line).toBeCloseTo(4, 1);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("renders a whole /vote: answer cards, vote bars with the models revealed, the winner's original answer", async () => {
    const { page, errors } = await open();
    await ask(page, "/vote Vilket programspråk passar bäst för webb-API:er?");
    await page.locator(".vote .card").first().waitFor();
    await page.locator(".vote .winner").waitFor({ timeout: 60_000 });
    await page.locator(".vote h2", { hasNotText: "Vilket programspråk passar bäst för webb-API:er?" }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/vote-result.png`, fullPage: true });

    expect(await page.locator(".vote .card").count()).toBe(7);
    // Once the run is over, each card says what its participant's calls took in all.
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    expect(await page.locator(".vote .card .cost").allInnerTexts()).toEqual(Array(7).fill(expect.stringMatching(/^Totalt: \d{1,3}([ \u00a0]\d{3})* token$/)));
    expect(await page.locator(".vote .bars > li").count()).toBe(7);
    expect(await page.locator(".vote .ballots > li").count()).toBe(7);
    const winner = await page.locator(".vote .winner").innerText();
    expect(winner).toMatch(/Vinnare: \S+ — \d av 7 röster/);
    // The winner's answer is shown whole, as its card has it.
    const name = /Vinnare: (\S+)/.exec(winner)![1];
    const card = page.locator(".vote .card", { has: page.locator("h3", { hasText: name }) });
    expect(await card.locator(".badge").first().innerText()).toMatch(/^Svar [A-G] · \d röst(er)?$/);
    await card.locator("summary").click();
    // (The card shows the text as written, the winner renders its markdown: compare line by line.)
    const lines = (await card.locator(".answer").innerText())
      .split("\n")
      .map((l) => l.replace(/^- /, "").trim())
      .filter(Boolean);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(winner).toContain(line);
    // Each vote opens to show its reasoning; the bars name the model behind each label.
    await page.locator(".vote .ballots summary").first().click();
    expect(await page.locator(".vote .ballots .answer").first().innerText()).toMatch(/VOTE: Response [A-G]/);
    expect(await page.locator(".vote .bars .name").first().innerText()).toMatch(/^Svar A \S+/);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("renders a whole /revise: first answers, revisions with decisions and a diff view, the vote on the revised answers, the winner", async () => {
    const { page, errors } = await open();
    await ask(page, "/revise Ska företag införa fyra dagars arbetsvecka?");
    await page.locator(".revise .winner").waitFor({ timeout: 60_000 });
    await page.locator(".revise h2", { hasNotText: "Ska företag införa fyra dagars arbetsvecka?" }).waitFor();

    expect(await page.locator(".revise .revisions .card").count()).toBe(6);
    expect(await page.locator(".revise .revisions .summary").innerText()).toMatch(/^\d reviderade, \d stod fast, \d slog ihop$/);
    const merged = page.locator(".revision", { has: page.locator(".badge.decision.merged, .badge.decision.revised") }).first();
    expect(await merged.locator(".words").innerText()).toMatch(/^[+−]\d+ ord$/);
    await merged.getByRole("button", { name: "Visa ändringar" }).click();
    expect(await merged.locator(".diff ins").count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${ARTIFACTS}/revise-result.png`, fullPage: true });
    expect(await page.locator(".revise .bars > li").count()).toBe(6);
    expect(await page.locator(".revise .winner").innerText()).toMatch(/Vinnare: \S+ — \d av 6 röster(REVIDERADE|SLOG IHOP|STOD FAST)/);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("renders a whole /deep (rounds with the moderator's decision, the synthesis) and a /council --debate (the verdict table, the consensus)", async () => {
    const { page, errors } = await open();
    await ask(page, "/deep Ska städer förbjuda bilar i centrum?");
    await page.locator(".deep .synthesis h2").first().waitFor({ timeout: 60_000 });
    expect(await page.locator(".deep .round").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator(".deep .round").first().locator("tbody tr").count()).toBe(4);
    expect(await page.locator(".deep .moderator").last().innerText()).toMatch(/^Moderator: samstämmighet \d+ % · nya poäng \d+ % → stopp/);
    expect(await page.locator(".deep .card .badge").first().innerText()).toMatch(/^Debattör [A-D]$/);
    // Values from the data are in the reader's words too.
    expect(await page.locator(".deep .stances tbody td:nth-child(2)").first().innerText()).toMatch(/^(står fast|ger med sig|ger delvis med sig)$/);

    await ask(page, "/council --debate Kinesiska muren syns från rymden med blotta ögat.");
    await page.locator(".council .winner").waitFor({ timeout: 60_000 });
    await page.locator(".council .synthesis h2").first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${ARTIFACTS}/deep-council.png`, fullPage: true });
    expect(await page.locator(".council .verdicts tbody tr").count()).toBe(3);
    expect(await page.locator(".council .verdicts thead th").allInnerTexts()).toEqual(["Domare", "Runda 1", "Runda 2"]);
    expect(await page.locator(".council .verdicts .badge.verdict").count()).toBe(6);
    expect(await page.locator(".council .verdicts tbody th .note:not(.cost)").allInnerTexts()).toEqual(["korrekthet", "risk", "fullständighet"]);
    expect(await page.locator(".council .winner").innerText()).toMatch(/^Konsensus: (PASS|WARN|FAIL) — PASS \d · WARN \d · FAIL \d/);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it("lists earlier conversations, opens one to read and go on with, and deletes one", async () => {
    const { page, errors, server } = await open();
    await ask(page, "/vote Vilket språk passar för skript?");
    await page.locator(".vote .winner").waitFor({ timeout: 60_000 });
    const winnerText = await page.locator(".vote .winner .synthesis").innerText();
    await ask(page, "Hej då!");
    await page.locator(".message.assistant .chat").waitFor({ timeout: 30_000 });

    await page.getByRole("link", { name: "Historik" }).click();
    const rows = page.locator(".conversations li");
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    // Newest first: the chat, then the /vote conversation (its title generated by the run).
    expect(await rows.nth(0).innerText()).toContain("chatt");
    expect(await rows.nth(1).innerText()).toContain("/vote");
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/history.png`, fullPage: true });

    // Opened, the conversation reads as stored; a follow-up goes on in the same conversation.
    await rows.nth(1).locator("a").click();
    await page.locator(".message.assistant .synthesis").waitFor();
    expect(await page.locator(".message.user").first().innerText()).toBe("/vote Vilket språk passar för skript?");
    expect(await page.locator(".message.assistant .synthesis").first().innerText()).toBe(winnerText);
    const conversationId = decodeURIComponent(new URL(page.url()).hash.slice("#c/".length));
    await ask(page, "/vote Och för webben?");
    // The reopened run shows its winner too: wait for the follow-up's, and for its run to end.
    await page.locator(".vote .winner").nth(1).waitFor({ timeout: 60_000 });
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    const stored = await (await fetch(`${server.url}/api/v1/conversations/${conversationId}`)).json();
    expect(stored.messages.filter((m: any) => m.role === "user").map((m: any) => m.content)).toEqual([
      "/vote Vilket språk passar för skript?",
      "/vote Och för webben?",
    ]);

    // Deleted from the list, it is gone from the server too.
    await page.getByRole("link", { name: "Historik" }).click();
    await rows.nth(1).waitFor();
    // Deleting asks first.
    const asked = new Promise<string>((resolve) =>
      page.once("dialog", (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await rows
      .nth(1)
      .getByRole("button", { name: /^Radera/ })
      .click();
    expect(await asked).toMatch(/^Radera ”.+” och allt i det\?/);
    await page.waitForFunction(() => document.querySelectorAll(".conversations li").length === 1);
    expect((await fetch(`${server.url}/api/v1/conversations/${conversationId}`)).status).toBe(404);
    expect(errors).toEqual([]);
  }, 120_000);

  it("reopens a /debatt and a /compare from the history as they were seen live: the arena, the cards side by side, never raw JSON, never wider than the screen", async () => {
    const { page, errors } = await open();
    await ask(page, "/debatt Bör städer förbjuda bilar?");
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.locator(".synthesis").waitFor();
    const live = {
      cards: await page.locator(".arena .card").count(),
      winner: await page.locator(".winner").innerText(),
      synthesis: await page.locator(".arena .synthesis").innerText(),
      ballots: await page.locator(".ballots > li").count(),
      ballotTexts: await page.locator(".arena .ballots").innerText(),
      round2: await page.locator('.card[data-participant="call_claude"] .answer').innerText(),
      usage: await page.locator(".note.run-cost").innerText(),
      cardCost: await page.locator('.card[data-participant="call_claude"] .cost').innerText(),
    };
    // What the run used: every call, simulated (so no cost), and each card's share in tokens.
    // Counts grouped as Swedish writes them, by a no-break space: "91 987".
    expect(live.usage).toMatch(/^Kostnad: \d+ modellanrop · \d{1,3}([ \u00a0]\d{3})+ token in, \d{1,3}([ \u00a0]\d{3})* ut · simulerat, ingen kostnad$/);
    expect(live.cardCost).toMatch(/^Totalt: \d{1,3}([ \u00a0]\d{3})* token$/);
    await page.goto(`${page.url().split("#")[0]}#history`);
    await page.locator(".conversations li a").first().click();
    await page.locator(".arena .winner").waitFor();
    expect(await page.locator(".arena .card").count()).toBe(live.cards);
    expect(await page.locator(".winner").innerText()).toBe(live.winner);
    expect(await page.locator(".arena .synthesis").innerText()).toBe(live.synthesis);
    expect(await page.locator(".ballots > li").count()).toBe(live.ballots);
    // The ballots in the same order: the roster's, live and reopened.
    expect(await page.locator(".arena .ballots").innerText()).toBe(live.ballotTexts);
    expect(await page.locator(".tab.done").count()).toBe(4);
    expect(await page.locator('.card[data-participant="call_claude"] .answer').innerText()).toBe(live.round2);
    expect(await page.locator(".note.run-cost").innerText()).toBe(live.usage);
    expect(await page.locator('.card[data-participant="call_claude"] .cost').innerText()).toBe(live.cardCost);
    expect(await page.locator("body").innerText()).not.toContain("debate_analysis");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.goto(page.url().split("#")[0]);
    await ask(page, "/compare Hur lär jag mig TypeScript?");
    await page.locator(".compare .note[role=status]").waitFor({ timeout: 60_000 });
    // What the run used arrives after the answers, at the run's end: wait for it before reading the cards' costs.
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    const answers = await page.locator(".compare .card .answer").allInnerTexts();
    const costs = await page.locator(".compare .card .cost").allInnerTexts();
    expect(costs.length).toBe(answers.length);
    await page.goto(`${page.url().split("#")[0]}#history`);
    await page.locator(".conversations li a").first().click();
    await page.locator(".compare .card").first().waitFor();
    expect(await page.locator(".compare .card .answer").allInnerTexts()).toEqual(answers);
    expect(await page.locator(".compare .card .cost").allInnerTexts()).toEqual(costs);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it("reopens a /vote, a /revise, a /deep and a /council from the history with the view they showed live, word for word", async () => {
    const { page, errors } = await open();
    const home = page.url().split("#")[0];
    const runs = [
      ["/vote Vilket programspråk passar bäst för webb-API:er?", ".vote .winner"],
      ["/revise Ska företag införa fyra dagars arbetsvecka?", ".revise .winner"],
      ["/deep Ska städer förbjuda bilar i centrum?", ".deep .synthesis h2"],
      ["/council --debate Kinesiska muren syns från rymden med blotta ögat.", ".council .synthesis h2"],
    ];
    for (const [message, finished] of runs) {
      await page.goto(home);
      await ask(page, message);
      await page.locator(finished).first().waitFor({ timeout: 60_000 });
      await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
      const live = await page.locator("section.arena").innerText();
      await page.goto(`${home}#history`);
      await page.locator(".conversations li a").first().click();
      await page.locator(finished).first().waitFor();
      expect(await page.locator("section.arena").innerText(), message).toBe(live);
      expect(await page.locator("body").innerText()).not.toMatch(/^\s*[{[]"/m);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    expect(errors).toEqual([]);
  }, 180_000);

  it("survives streams cut every 400 ms: the page resumes its debate, and an EventSource sees every event exactly once", async () => {
    const { page, errors } = await open({ SSE_MAX_CONNECTION_MS: "400" });
    // The page's own stream is cut again and again; it resumes from the last event id each time.
    await ask(page, "/debatt Bör AI regleras?");
    await page.locator(".winner").waitFor({ timeout: 90_000 });
    await page.locator(".synthesis").waitFor();
    expect(await page.locator(".card").count()).toBe(8);
    expect(await page.locator(".tab.done").count()).toBe(4);
    expect(await page.locator(".ballots > li").count()).toBe(8);
    expect(await page.getByRole("alert").count()).toBe(0);

    // A plain EventSource on a second run: it reconnects with Last-Event-ID after every cut.
    const seen = await page.evaluate(async () => {
      const res = await fetch("/api/v1/chat/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "/debatt Ska skolan ha mobilförbud?" }),
      });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const first = (await reader.read()).value ?? "";
      await reader.cancel();
      const runId = JSON.parse(/data: (.*)/.exec(first)![1]).run_id as string;
      return new Promise<{ ids: number[]; opens: number }>((resolve) => {
        const ids: number[] = [];
        let opens = 0;
        const source = new EventSource(`/api/v1/debates/${runId}/events`);
        source.onopen = () => opens++;
        const on = (e: Event) => {
          // EventSource also fires a plain `error` Event at each cut; only messages carry ids.
          if (!(e instanceof MessageEvent)) return;
          ids.push(Number(e.lastEventId));
          if (e.type === "done") {
            source.close();
            resolve({ ids, opens });
          }
        };
        const names = [
          "metadata",
          "debate-init",
          "debate-round-start",
          "debate-participant-start",
          "debate-participant-delta",
          "debate-participant-end",
          "debate-round-end",
        ];
        for (const name of [...names, "debate-vote-result", "debate-results", "text-delta", "debate-synthesis-complete", "error", "usage", "done"]) {
          source.addEventListener(name, on);
        }
      });
    });
    expect(seen.opens).toBeGreaterThan(1);
    expect(seen.ids).toEqual(seen.ids.map((_, i) => i + 1));
    expect(errors).toEqual([]);
  }, 150_000);

  it("asks for a token when the server needs one; signed in, the cookie carries the streams; signing out asks again", async () => {
    const admin = "admin-token-0123456789";
    const { page, errors, server } = await open({ AUTH: "tokens", ADMIN_TOKEN: admin });
    const ada = await (
      await fetch(`${server.url}/api/v1/admin/users`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Ada" }),
      })
    ).json();

    await page.getByLabel("Token").fill("wrong-token");
    await page.getByRole("button", { name: "Logga in" }).click();
    // The refusal in the reader's words, not the server's English.
    expect(await page.getByRole("alert").innerText()).toBe("Token är ogiltig (den kan ha dragits tillbaka).");
    await page.getByLabel("Token").fill(ada.token);
    await page.getByRole("button", { name: "Logga in" }).click();
    await page.getByLabel("Meddelande").waitFor();
    expect(await page.locator(".signed-in").innerText()).toContain("Ada");

    await ask(page, "/debatt Bör AI regleras?");
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.reload();
    await page.getByLabel("Meddelande").waitFor();
    await page.getByRole("button", { name: "Logga ut" }).click();
    await page.getByLabel("Token").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    // The one expected console error is the refused wrong token.
    expect(errors.filter((e) => !/401/.test(e))).toEqual([]);
  });

  it("shares a run read-only with anyone who has the link, and exports it as one HTML page that opens offline", async () => {
    const admin = "admin-token-0123456789";
    const { page, errors, server } = await open(
      { AUTH: "tokens", ADMIN_TOKEN: admin, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0" },
      undefined,
      "en-US",
    );
    const ada = (await (
      await fetch(`${server.url}/api/v1/admin/users`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Ada" }),
      })
    ).json()) as { token: string };
    await page.getByLabel("Token").fill(ada.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await ask(page, "/vote Which language suits a web API best?");
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    const run = page.locator(".message.assistant").last();
    const winner = await run.locator(".winner").first().innerText();

    // The run's menu makes a link; anyone opens it without signing in, and sees that run only, read-only.
    await run.locator(".run-menu summary").click();
    await run.getByRole("button", { name: "Make a read-only link" }).click();
    const link = await run.locator(".share-link").inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/shared/[A-Za-z0-9_-]{43}$`));
    const stranger = await browser.newContext({ locale: "en-US" });
    const shared = await stranger.newPage();
    const sharedErrors: string[] = [];
    shared.on("console", (m) => m.type() === "error" && sharedErrors.push(m.text()));
    shared.on("pageerror", (e) => sharedErrors.push(e.message));
    // It asks the server for nothing but the page itself.
    const asked: string[] = [];
    shared.on("request", (r) => asked.push(r.url()));
    await shared.goto(link);
    await shared.locator(".read-only").waitFor();
    expect(await shared.locator(".message.user").innerText()).toContain("Which language suits a web API best?");
    expect(await shared.locator(".winner").first().innerText()).toBe(winner);
    expect(await shared.locator(".composer").count()).toBe(0);
    expect(await shared.locator(".run-menu").count()).toBe(0);
    expect(asked).toEqual([link]);
    expect(await accessibilityViolations(shared)).toEqual([]);
    expect(sharedErrors).toEqual([]);

    // Withdrawn, the link opens nothing.
    await run.getByRole("button", { name: "Stop sharing" }).click();
    await run.getByText("The link no longer works.").waitFor();
    expect((await shared.goto(link))!.status()).toBe(404);
    await stranger.close();

    // The HTML export: one file that draws the run with the network off.
    const href = await run.locator(".export-link", { hasText: "HTML" }).getAttribute("href");
    const html = await (await fetch(`${server.url}${href}`, { headers: { authorization: `Bearer ${ada.token}` } })).text();
    const file = join(mkdtempSync(join(tmpdir(), "debatt-export-")), "run.html");
    writeFileSync(file, html);
    const offline = await browser.newContext({ offline: true, locale: "en-US" });
    const opened = await offline.newPage();
    const offlineErrors: string[] = [];
    opened.on("pageerror", (e) => offlineErrors.push(e.message));
    await opened.goto(`file://${file}`);
    await opened.locator(".read-only").waitFor();
    expect(await opened.locator(".winner").first().innerText()).toBe(winner);
    expect(offlineErrors).toEqual([]);
    await offline.close();
    expect(errors).toEqual([]);
  });

  it("records a spoken question and puts its transcription in the message box; without a key the button says why", async () => {
    const stt = await startFakeTranscription();
    // A browser with a fake microphone (a tone), allowed without asking.
    const withMic = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--headless", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
    });
    try {
      const server = await startServerProcess({ SIMULATED_LATENCY_MS: "0", STT_API_KEY: "sk-stt", STT_BASE_URL: stt.baseURL });
      servers.push(server);
      const page = await withMic.newPage({ locale: "en-US" });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto(server.url);
      await page.getByLabel("Message").fill("Hello.");
      await page.getByRole("button", { name: "Speak the question" }).click();
      await page.getByText("Recording… press again when you are done.").waitFor();
      await page.waitForTimeout(600);
      await page.getByRole("button", { name: "Stop recording" }).click();
      await page.waitForFunction(() => (document.querySelector("#message") as HTMLTextAreaElement).value.includes("Should cities ban cars?"));
      expect(await page.getByLabel("Message").inputValue()).toBe("Hello. Should cities ban cars?");
      expect(stt.seen).toHaveLength(1);
      expect(stt.seen[0].file.type).toBe("audio/webm");
      expect(stt.seen[0].file.bytes.length).toBeGreaterThan(100);
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(errors).toEqual([]);

      // Without STT_API_KEY the button stays, and says why it cannot listen.
      const keyless = await startServerProcess({ SIMULATED_LATENCY_MS: "0" });
      servers.push(keyless);
      await page.goto(keyless.url);
      await page.getByRole("button", { name: "Speak the question" }).click();
      await page.getByText("Speech input is off: the server has no STT_API_KEY.").waitFor();
    } finally {
      await withMic.close();
      await stt.close();
    }
  });

  it("suggests topics on an empty chat in the reader's language; picking one fills the message box; admins change them", async () => {
    const admin = "admin-token-0123456789";
    const { page, errors, server } = await open({ ADMIN_TOKEN: admin });
    const suggestion = page.getByRole("button", { name: /Bör AI regleras\?/ });
    await suggestion.waitFor();
    // Every suggestion the templates API gives (two per format) is offered.
    const offered = (await (await fetch(`${server.url}/api/v1/templates?lang=sv`)).json()) as { formats: { items: unknown[] }[] };
    expect(offered.formats.flatMap((f) => f.items)).toHaveLength(2 * FORMAT_IDS.length);
    expect(await page.locator(".suggestion").count()).toBe(2 * FORMAT_IDS.length);
    await suggestion.click();
    expect(await page.getByLabel("Meddelande").inputValue()).toBe("/debatt Bör AI regleras?");
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.locator(".lang-switch select").selectOption("en");
    await page.getByRole("button", { name: /Should AI be regulated\?/ }).waitFor();

    // The admin page: English /vote gets one suggestion of the admin's own.
    await page.goto(`${server.url}/#admin`);
    await page.getByLabel("Admin token").fill(admin);
    await page.getByRole("button", { name: "Sign in" }).click();
    const form = page.locator(".templates-admin");
    await form.waitFor();
    // Each format's command stands over its own box, as wide as the form: not flowing beside the box before it.
    const layout = await form.evaluate((f) => {
      const width = f.getBoundingClientRect().width;
      return [...f.querySelectorAll(".template-format")].map((l) => {
        const code = l.querySelector("code")!.getBoundingClientRect();
        const box = l.querySelector("textarea")!.getBoundingClientRect();
        return code.bottom <= box.top && box.width >= width * 0.9;
      });
    });
    expect(layout.length).toBeGreaterThan(0);
    expect(layout.every(Boolean), JSON.stringify(layout)).toBe(true);
    await form.locator(".template-format", { hasText: "/vote" }).locator("textarea").fill("Tabs or spaces?");
    await form.getByRole("button", { name: "Save the suggestions" }).click();
    await form.getByText("Saved.").waitFor();
    await page.goto(`${server.url}/#`);
    await page.reload();
    await page.getByRole("button", { name: /Tabs or spaces\?/ }).click();
    expect(await page.getByLabel("Message").inputValue()).toBe("/vote Tabs or spaces?");
    expect(await page.locator(".suggestion", { hasText: "/vote" }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("goes on with one model of a finished run: its answer says who answers, from what it said", async () => {
    const { page, errors, server } = await open({ SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0" }, undefined, "en-US");
    await ask(page, "/vote Which language suits a web API best?");
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    const run = page.locator(".message.assistant").last();
    await run.locator(".run-menu summary").click();
    await run.locator(".continue-with select").selectOption({ label: "Claude" });
    await run.getByRole("button", { name: "Talk to it" }).click();
    await page.getByText("Talking with Claude, who goes on from what it said in that run.").waitFor();
    await ask(page, "Why that one?");
    const answer = page.locator(".message.assistant").last();
    await answer.getByText("Claude goes on from what it said:").waitFor({ timeout: 30_000 });
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 30_000 });
    expect((await answer.locator(".chat").innerText()).length).toBeGreaterThan(20);
    // Still talking with Claude until stopped.
    await page.getByRole("button", { name: "Stop talking with Claude" }).click();
    expect(await page.locator(".talking-to").count()).toBe(0);
    // Reopened from the history, the answer still says who gave it.
    const { conversations } = (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as { conversations: { id: string }[] };
    await page.goto(`${server.url}/#c/${conversations[0].id}`);
    await page.getByText("Claude goes on from what it said:").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("survives a malformed #hash: a broken %-escape opens a new chat instead of a blank page", async () => {
    const { page, errors, server } = await open();
    await page.goto(`${server.url}/#c/%E0%A4%A`);
    await page.getByLabel("Meddelande").waitFor();
    expect(errors).toEqual([]);
  });

  it("fits a phone-width screen", async () => {
    const { page, errors } = await open({}, { width: 390, height: 844 });
    await ask(page, "/debatt Ska skolan ha mobilförbud?");
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${ARTIFACTS}/arena-phone.png`, fullPage: true });

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The message box leaves the screen to the answers: under an eighth of it, and after a run no hint, even while written in.
    await page.locator("#message").blur();
    expect(await page.locator(".composer").evaluate((c) => c.getBoundingClientRect().height / innerHeight)).toBeLessThan(0.125);
    await page.locator("#message").focus();
    expect(await page.locator("#hint").isVisible()).toBe(false);
    // On a new chat the hint shows while the box is written in…
    await page.goto(page.url().split("#")[0]);
    await page.locator("#message").focus();
    expect(await page.locator("#hint").isVisible()).toBe(true);
    // …and stays while the focus is on the form's button (a hint folding away would move Send from
    // under a tap before it lands); it goes when the focus leaves the box.
    await page.locator("#message").fill("/compare Tea or coffee?");
    await page.locator(".composer button[type=submit]").focus();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("BUTTON");
    expect(await page.locator("#hint").isVisible()).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    expect(await page.locator("#hint").isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it("plays /dvoice audio as it arrives, scheduling the buffers in speaking order", async () => {
    const tts = await startFakeSpeech(() => ({ bytes: 960 }));
    stops.push(tts.close);
    const { page, errors, server } = await open({ TTS_API_KEY: "tts-test", TTS_BASE_URL: tts.baseURL });
    // Record every buffer the page schedules: its start time and its samples as Int16.
    await page.evaluate(() => {
      const w = window as unknown as { scheduled: { when: number; samples: number[] }[] };
      w.scheduled = [];
      const start = AudioBufferSourceNode.prototype.start;
      AudioBufferSourceNode.prototype.start = function (when?: number, ...rest: number[]) {
        const data = this.buffer!.getChannelData(0);
        w.scheduled.push({ when: when ?? 0, samples: Array.from(data, (f) => Math.round(f * 32768)) });
        return start.call(this, when, ...rest);
      };
    });

    await ask(page, "/dvoice Bör AI regleras?");
    await page.locator(".live").waitFor({ timeout: 30_000 });
    // While it plays, the bar says who speaks and which of their sentences is heard.
    const sentence = page.locator(".voice-bar .sentence");
    await sentence.waitFor({ timeout: 30_000 });
    const heard = (await sentence.innerText()).trim();
    const speaker = /Talar: (\S+)/.exec(await page.locator(".voice-bar .now").innerText())?.[1];
    expect(heard.length).toBeGreaterThan(5);
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    const download = page.getByRole("link", { name: "Ladda ner ljudet" });
    await download.waitFor();
    await page.waitForFunction(() => !document.querySelector(".live"), undefined, { timeout: 30_000 });

    const scheduled = await page.evaluate(() => (window as unknown as { scheduled: { when: number; samples: number[] }[] }).scheduled);
    const starts = scheduled.map((b) => b.when);
    const exported = Buffer.from(await (await fetch(`${server.url}${await download.getAttribute("href")}`)).arrayBuffer()).subarray(44);
    const played = Buffer.alloc(scheduled.reduce((n, b) => n + b.samples.length * 2, 0));
    let at = 0;
    for (const b of scheduled) for (const v of b.samples) at = played.writeInt16LE(v, at);

    // The sentence shown was one the speaker shown was saying (the audio runs behind the text, so it is checked against the run's events).
    const runId = /\/api\/v1\/debates\/([^/]+)\/audio/.exec((await download.getAttribute("href"))!)![1];
    const { events } = await readSse(await fetch(`${server.url}/api/v1/debates/${runId}/events`));
    const said = events.filter((e) => e.event === "debate-voice-speaker" && e.data.model === speaker).flatMap((e) => e.data.sentences as string[]);
    expect(said).toContain(heard);
    expect(scheduled.length).toBeGreaterThan(6);
    expect(starts.every((t, i) => i === 0 || t >= starts[i - 1])).toBe(true);
    expect(played.equals(exported)).toBe(true);
    expect(errors).toEqual([]);
  });

  it("stops a spoken debate's audio for good: with the voice bar's Stop, with the run's Stop, and when the next run starts", async () => {
    // Three seconds of audio a sentence: the text runs far ahead of it, and still goes on when the first audio plays.
    const tts = await startFakeSpeech(() => ({ bytes: 3 * 24_000 * 2 }));
    stops.push(tts.close);
    const { page, errors } = await open({
      TTS_API_KEY: "tts-test",
      TTS_BASE_URL: tts.baseURL,
      SIMULATED_CHUNK_DELAY_MS: "80",
      DEBATE_PARTICIPANTS: TWO_MODELS,
    });
    // Count the buffers the page starts and stops.
    await page.evaluate(() => {
      const w = window as unknown as { started: number; stopped: number };
      w.started = 0;
      w.stopped = 0;
      const { start, stop } = AudioBufferSourceNode.prototype;
      AudioBufferSourceNode.prototype.start = function (when?: number, offset?: number, duration?: number) {
        w.started++;
        return start.call(this, when, offset, duration);
      };
      AudioBufferSourceNode.prototype.stop = function (when?: number) {
        w.stopped++;
        return stop.call(this, when);
      };
    });
    const counts = () => page.evaluate(() => ({ ...(window as unknown as { started: number; stopped: number }) }));
    const bar = page.locator(".voice-bar").last();
    /** Waits until the newest debate's audio plays, then has `silence` stop it, and checks that nothing of it plays afterwards. */
    const silencedBy = async (label: string, silence: () => Promise<void>, settled: () => Promise<unknown>) => {
      await bar.locator(".live").waitFor({ timeout: 60_000 });
      const before = await counts();
      await silence();
      await bar.locator(".voice-stop").waitFor({ state: "detached", timeout: 30_000 });
      const after = await counts();
      expect(after.stopped, label).toBeGreaterThan(before.stopped);
      // Whatever else the run sends, this debate stays silent.
      await settled();
      expect((await counts()).started, label).toBe(after.started);
      expect(await bar.locator(".live").count(), label).toBe(0);
      // Silent, the bar offers no pause and its wave lies flat.
      expect(await bar.getByRole("button", { name: /Pausa|Pause/ }).count(), label).toBe(0);
      const drawn = await bar.locator("canvas").evaluate((c: HTMLCanvasElement) =>
        c
          .getContext("2d")!
          .getImageData(0, 0, c.width, c.height)
          .data.some((v) => v !== 0),
      );
      expect(drawn, label).toBe(false);
    };

    await ask(page, "/dvoice Bör AI regleras?");
    await silencedBy(
      "the voice bar's Stop",
      async () => {
        // However far the text has gone, the playing bar's Stop is at hand at the window's top.
        await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
        const stop = await bar.locator(".voice-stop").evaluate((b) => {
          const r = b.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, height: innerHeight };
        });
        expect(stop.top).toBeGreaterThanOrEqual(0);
        expect(stop.bottom).toBeLessThanOrEqual(stop.height);
        await bar.locator(".voice-stop").click();
      },
      () => page.locator(".winner").waitFor({ timeout: 120_000 }),
    );
    await ask(page, "/dvoice Bör AI regleras?");
    await silencedBy(
      "the run's Stop",
      () => page.locator("button.stop").click(),
      () => page.locator("button.stop").waitFor({ state: "detached", timeout: 30_000 }),
    );
    await ask(page, "/dvoice Bör skolor ha läxor?");
    await page.locator(".winner").nth(1).waitFor({ timeout: 120_000 });
    await silencedBy(
      "the next run",
      () => ask(page, "/compare Te eller kaffe?"),
      () => page.locator("button.stop").waitFor({ state: "detached", timeout: 120_000 }),
    );
    expect(errors).toEqual([]);
  });

  it("edits a prompt on the admin page, shows the API's validation, and the next debate uses it", async () => {
    const openai = await startFakeOpenAI((body) => {
      const said = JSON.stringify(body.messages);
      return said.includes("MARKÖR-42") && !said.includes("Runda 4") ? { text: "Jag följer MARKÖR-42 i mitt svar." } : debater(body);
    });
    stops.push(openai.close);
    const token = "admin-token-0123456789";
    const { page, errors } = await open({ ADMIN_TOKEN: token, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: TWO_MODELS });

    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByLabel("Admin-token").fill(token);
    await page.getByRole("button", { name: "Logga in" }).click();
    // The prompts are grouped and collapsed; a search opens the groups that match.
    expect(await page.locator("details.prompt-group[open]").count()).toBe(0);
    await page.getByLabel("Sök bland promptarna").fill("domain_planner");
    const editor = page.locator('article.prompt[data-key="debate.domain_planner.system"]');
    await editor.locator("textarea").fill("Du är en debattör. MARKÖR-42 gäller.");
    await editor.getByRole("button", { name: "Spara" }).click();
    const refusal = editor.getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain("required placeholder {participant} is missing");
    await editor.locator("textarea").fill("Du är {participant}. MARKÖR-42 gäller.");
    await editor.getByRole("button", { name: "Spara" }).click();
    await editor.getByRole("status").waitFor();
    expect(await editor.locator(".badge").innerText()).toBe("ändrad");
    expect(await accessibilityViolations(page)).toEqual([]);

    // The header every page shares leads back to the chat.
    await page.getByRole("navigation").getByRole("link", { name: "Chatt" }).click();
    await ask(page, "/debatt Bör AI regleras?");
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    const texts = await page.locator(".card .answer").allInnerTexts();
    expect(texts.filter((t) => t.includes("MARKÖR-42")).length).toBeGreaterThanOrEqual(2);
    expect(errors.filter((e) => !e.includes("400"))).toEqual([]);
  });

  it("says admin is off, and how to turn it on, before asking for a token", async () => {
    const { page, errors } = await open({}, undefined, "en-US");
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByText("Admin is turned off on this server").waitFor();
    expect(await page.getByText("ADMIN_TOKEN to a long random secret").isVisible()).toBe(true);
    expect(await page.getByLabel("Admin token").count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("says on a new chat, before any run, which configured model its endpoint no longer offers and the nearest one it does; dismissed, it is gone", async () => {
    const openai = await startFakeOpenAI((body) => debater(body), { models: ["x-ai/grok-4.1", "anthropic/claude-sonnet-4.5"] });
    stops.push(openai.close);
    const { page, errors } = await open({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, DEBATE_PARTICIPANTS: TWO_MODELS }, undefined, "en-US");
    const notice = page.locator(".models-notice");
    await notice.waitFor();
    expect(await notice.locator('li[data-model="x-ai/grok-4"]').innerText()).toBe("x-ai/grok-4 is not offered by its endpoint · nearest: x-ai/grok-4.1");
    expect(await notice.locator('li[data-model="anthropic/claude-sonnet-4.5"]').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await notice.getByRole("button", { name: "Dismiss" }).click();
    expect(await notice.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows an answer's thinking collapsed and as text, its sources as links its [n] markers lead to, and how a cut or refused answer ended", async () => {
    const { page, errors } = await open({}, undefined, "en-US");
    // A /compare whose answers carry notes, as a real provider's would (the simulated one sends none).
    const who = (key: string, display: string) => ({ model: display, model_key: key });
    const events = [
      [
        "compare-start",
        {
          question: "Is AI regulated?",
          participants: [
            { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
            { key: "call_claude", display: "Claude", model: "anthropic/claude" },
          ],
          simulated: false,
        },
      ],
      ["compare-answer-start", who("call_grok", "Grok")],
      ["compare-answer-delta", { ...who("call_grok", "Grok"), delta: "Yes, in the EU [1], and `a[2]` and [3] and [2]" }],
      [
        "compare-answer-end",
        {
          ...who("call_grok", "Grok"),
          word_count: 9,
          latency_ms: 1200,
          status: "ok",
          ending: "length",
          reasoning: "I weigh <b>both</b> sides first.",
          sources: [{ url: "https://example.org/eu-ai-act", title: "EU AI Act" }, { url: "javascript:alert(1)" }],
        },
      ],
      ["compare-answer-start", who("call_claude", "Claude")],
      [
        "compare-answer-end",
        { ...who("call_claude", "Claude"), word_count: 0, latency_ms: 300, status: "error", error: "refused: I can't help with that", ending: "refused" },
      ],
      ["compare-complete", { answered: 1, failed: 1 }],
      ["done", {}],
    ];
    const body = events
      .map(([event, data], i) => `id: ${i + 1}\nevent: ${event}\ndata: ${JSON.stringify({ ...(data as object), timestamp: new Date(0).toISOString() })}\n\n`)
      .join("");
    await page.route("**/api/v1/chat/stream", (route) => route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body }));
    await ask(page, "/compare Is AI regulated?");
    const grok = page.locator('.card[data-participant="call_grok"]');
    await grok.locator(".answer-notes").waitFor();

    // The thinking: collapsed, its words counted, shown as the text it is (no markup made of it).
    const thinking = grok.locator("details.thinking");
    expect(await thinking.getAttribute("open")).toBeNull();
    expect(await thinking.locator("summary").innerText()).toBe("Show the thinking (7 words)");
    await thinking.locator("summary").click();
    expect(await thinking.locator(".thinking-text").innerText()).toBe("I weigh <b>both</b> sides first.");
    expect(await thinking.locator("b").count()).toBe(0);
    // The sources: an http(s) one a link to a new tab, a javascript: one only text.
    const sources = grok.locator(".sources li");
    expect(await sources.allInnerTexts()).toEqual(["[1] EU AI Act", "[2] javascript:alert(1)"]);
    const link = sources.nth(0).locator("a");
    expect([await link.getAttribute("href"), await link.getAttribute("target"), await link.getAttribute("rel")]).toEqual([
      "https://example.org/eu-ai-act",
      "_blank",
      "noopener noreferrer",
    ]);
    expect(await sources.nth(1).locator("a").count()).toBe(0);
    // In the text, [1] leads to source 1; [2] (not a safe link), [3] (no such source) and the code's a[2] stay text.
    expect(await grok.locator(".answer a").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]))).toEqual([
      ["[1]", "https://example.org/eu-ai-act"],
    ]);
    expect(await grok.locator(".answer code").innerText()).toBe("a[2]");
    expect(await page.locator("a[href^='javascript:']").count()).toBe(0);
    // How the answers ended: cut at the limit (kept), and refused (beside its error).
    expect(await grok.locator(".badge.ending").innerText()).toBe("cut at the token limit");
    const claude = page.locator('.card[data-participant="call_claude"]');
    expect(await claude.locator(".badge.ending").innerText()).toBe("the model refused");
    expect(await claude.locator(".failure").innerText()).toContain("refused: I can't help with that");
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("stops a run with the stop button: the stream ends, what was said stays, and the history says it was stopped", async () => {
    // Slow streams, so that a stop lands while the answers are being written.
    const { page, errors } = await open({ SIMULATED_LATENCY_MS: "300", SIMULATED_CHUNK_DELAY_MS: "200" });
    // From the keyboard: Send pressed, focus moves to Stop when it takes Send's place…
    await page.locator("#message").fill("/debatt Stoppa mig");
    await page.getByRole("button", { name: "Skicka" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".card.speaking").first().waitFor();
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("stop");
    // …and Stop pressed, to the message box (Send cannot be pressed with nothing written).
    await page.keyboard.press("Enter");
    await page.locator(".ended", { hasText: "Stoppad" }).waitFor();
    expect(await page.getByRole("button", { name: "Skicka" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("message");
    expect(await page.locator(".winner").count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
    // Nothing goes on looking as if it were being written: no round spins, no card writes.
    expect(await page.locator(".tab .spinner").count()).toBe(0);
    expect(await page.locator(".card.speaking").count()).toBe(0);
    // What the stopped debate looks like: each round's state, the cards that never spoke, the note above the arena.
    const look = () =>
      page.evaluate(() => ({
        tabs: [...document.querySelectorAll(".tab")].map((t) => t.className),
        silent: [...document.querySelectorAll(".card")].filter((c) => c.querySelector(".answer.silent")).map((c) => c.getAttribute("data-participant")),
        noteFirst: document.querySelector(".ended")!.getBoundingClientRect().top < document.querySelector(".arena")!.getBoundingClientRect().top,
      }));
    const live = await look();
    expect(live.tabs[0]).toMatch(/\bstopped\b|\bdone\b/);
    expect(live.silent.length).toBeGreaterThan(0);
    expect(live.noteFirst).toBe(true);
    await page.goto(`${page.url().split("#")[0]}#history`);
    await page.getByText("Stoppa mig").first().click();
    await page.locator(".ended", { hasText: "det som hann sägas finns kvar" }).waitFor();
    expect(await page.locator(".tab .spinner").count()).toBe(0);
    // Reopened, it looks as it did live.
    expect(await look()).toEqual(live);

    // A /vote stopped while its answers stream: no card goes on looking as if it were writing.
    await page.goto(page.url().split("#")[0]);
    await ask(page, "/vote Stoppa omröstningen");
    await page.locator(".vote .card.speaking").first().waitFor();
    await page.getByRole("button", { name: "Stoppa" }).click();
    await page.locator("button.stop").waitFor({ state: "detached" });
    expect(await page.locator(".vote .card.speaking").count()).toBe(0);
    expect(await page.locator(".vote summary", { hasText: "Stoppades innan det var klart" }).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it("speaks the browser's language, switches on request and remembers it; a command without a topic gets examples, no retry, no history entry", async () => {
    const { page, errors } = await open({}, undefined, "en-US");
    await page.getByRole("button", { name: "Send" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await ask(page, "/debatt");
    const usage = page.locator(".usage");
    await usage.waitFor();
    expect(await usage.innerText()).toContain("/debatt needs a topic.");
    expect(await usage.locator("code").first().innerText()).toBe("/debatt Should AI be regulated?");
    expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
    // A format's view speaks English too, and says its participants are simulated.
    await ask(page, "/vote Which language suits scripting?");
    await page.locator(".vote .winner").waitFor({ timeout: 60_000 });
    expect(await page.locator(".vote .winner").innerText()).toMatch(/^\s*Winner: \S+ — \d+ of \d+ votes?/);
    expect(await page.locator(".vote .winner svg.icon-crown").count()).toBe(1);
    expect(await page.locator(".note.simulated").first().innerText()).toContain("Simulated participants");

    await page.getByRole("combobox", { name: "Language" }).selectOption("sv");
    expect(await usage.innerText()).toContain("/debatt behöver ett ämne.");
    // Each command says what it takes: /council judges a claim.
    await ask(page, "/council");
    await page.locator(".usage", { hasText: "/council behöver ett påstående att pröva." }).waitFor();
    // An option the command lacks is named, with the command's own options and examples; no retry.
    await ask(page, "/council --strict Kaffe är nyttigt.");
    const option = page.locator(".usage", { hasText: "--strict" });
    await option.waitFor();
    expect(await option.innerText()).toContain("--debate");
    expect(await option.locator("li code").first().innerText()).toMatch(/^\/council /);
    expect(await page.getByRole("button", { name: "Försök igen" }).count()).toBe(0);
    await page.reload();
    // The reloaded page is in Swedish: its send button says so (waited for: the page renders after the load).
    await page.getByRole("button", { name: "Skicka" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("sv");
    await page.goto(`${page.url().split("#")[0]}#history`);
    // The /vote is filed; the bare /debatt is not.
    await page.locator(".conversations li").first().waitFor();
    expect(await page.locator(".conversations li").count()).toBe(1);
    expect(await page.locator(".conversations li").innerText()).toContain("/vote");
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows an error and offers a retry when the stream drops", async () => {
    const { page, server } = await open({ SIMULATED_LATENCY_MS: "300" });
    await ask(page, "/debatt Tappad ström");
    await page.locator(".card.speaking").first().waitFor();
    server.child.kill("SIGKILL");

    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/stream|server/i);
    expect(await alert.getByRole("button", { name: "Försök igen" }).isVisible()).toBe(true);
  });

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

  it("/deep and /council on a 375 px phone fit the screen, key points included, live and reopened from #history; judges' names never break inside a word", async () => {
    const { page, errors } = await open({}, PHONE, "en-US");
    const home = page.url().split("#")[0];
    for (const question of ["/deep Should we tax sugar?", "/deep Should Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch tax sugar?"]) {
      await page.goto(home);
      await ask(page, question);
      await page.locator(".deep .synthesis h2").first().waitFor({ timeout: 30_000 });
      await page.locator("button.stop").waitFor({ state: "detached", timeout: 30_000 });
      const live = await layout(page);
      expect(live.scrollWidth, `${question}, live`).toBeLessThanOrEqual(PHONE.width);
      expect(live.points.length).toBeGreaterThan(0);
      expect(
        live.points.every((p) => p.shown && p.inside),
        `${question}, live: key points on screen`,
      ).toBe(true);
      // Each stacked cell still says which column it is.
      expect(
        await page
          .locator(".deep .stances tbody td")
          .first()
          .evaluate((td) => getComputedStyle(td, "::before").content),
      ).toBe('"Stance: "');

      await page.goto(`${home}#history`);
      await page.locator(".conversations li a").first().click();
      await page.locator(".deep .synthesis h2").first().waitFor();
      const reopened = await layout(page);
      expect(reopened.scrollWidth, `${question}, reopened`).toBeLessThanOrEqual(PHONE.width);
      expect(reopened.points.length).toBe(live.points.length);
      expect(
        reopened.points.every((p) => p.shown && p.inside),
        `${question}, reopened: key points on screen`,
      ).toBe(true);
    }
    // On a wide screen the rounds stay a table.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator(".deep .stances thead th").first().isVisible()).toBe(true);
    expect(
      await page
        .locator(".deep .stances tbody td")
        .first()
        .evaluate((td) => getComputedStyle(td).display),
    ).toBe("table-cell");

    // /council's verdicts stack the same way on a phone, and a judge's name and perspective never break inside a word.
    for (const width of [PHONE.width, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(home);
      await ask(page, "/council --debate Nuclear power is the safest source of energy.");
      await page.locator(".council .synthesis h2").first().waitFor({ timeout: 30_000 });
      expect(await brokenWords(page, ".council .verdicts tbody th"), `${width} px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
      const display = await page
        .locator(".council .verdicts tbody td")
        .first()
        .evaluate((td) => getComputedStyle(td).display);
      expect(display).toBe(width === PHONE.width ? "block" : "table-cell");
    }
    expect(errors).toEqual([]);
  });

  it("admin: signed in, the token form is gone (sign-out instead), the voices are the server's roster, without an empty box", async () => {
    const customRoster = JSON.stringify([
      { key: "call_alpha", display: "Alpha", model: "vendor/alpha-1" },
      { key: "call_beta", display: "Beta", model: "vendor/beta-1", voice: "onyx" },
      // A name the built-in voice map has too (Qwen: fable): the roster's own voice is the one shown.
      { key: "call_qwen", display: "Qwen", model: "qwen/qwen3-max", voice: "shimmer" },
    ]);
    const { page, errors } = await open({ ADMIN_TOKEN: LAYOUT_ADMIN_TOKEN, DEBATE_PARTICIPANTS: customRoster }, undefined, "en-US");
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByLabel("Admin token").fill(LAYOUT_ADMIN_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    const voices = page.locator(".voice-settings fieldset.voices label");
    await voices.first().waitFor();

    expect(await page.getByLabel("Admin token").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    // The configured roster, each with its voice (Beta's own, Alpha the fallback), not the default eight.
    expect(await voices.evaluateAll((ls) => ls.map((l) => l.firstChild!.textContent))).toEqual(["Alpha", "Beta", "Qwen"]);
    // A spoken debate's pacing (unset: the voice's own way) and its rounds' word limits.
    expect(await page.getByLabel("Keep the text with the audio").inputValue()).toBe("");
    expect(await page.locator(".voice-settings fieldset.word-limits input").evaluateAll((is) => is.map((i) => (i as HTMLInputElement).value))).toEqual([
      "300",
      "500",
      "500",
    ]);
    // What is spoken of each answer: unset, the voice's own way.
    expect(await page.getByLabel("What is spoken of each answer").inputValue()).toBe("");
    expect(await page.getByLabel("Beta").inputValue()).toBe("onyx");
    expect(await page.getByLabel("Qwen").inputValue()).toBe("shimmer");
    expect(await page.getByLabel("Alpha").inputValue()).toBe("alloy");
    // The box is as tall as its rows, nothing more.
    const gap = await page
      .locator(".voice-settings fieldset.voices")
      .evaluate((fs) => fs.getBoundingClientRect().bottom - fs.querySelector("label:last-of-type")!.getBoundingClientRect().bottom);
    expect(gap).toBeLessThan(30);
    // One prompt is "1 prompt".
    expect(await page.locator('details[data-group="compare"] summary').innerText()).toBe("/compare 1 prompt");

    // A voice for a roster participant is saved (the roster the server sent is not sent back as a setting).
    await page.getByLabel("Alpha").selectOption("echo");
    // So are the pacing and a round's word limit.
    await page.getByLabel("Keep the text with the audio").selectOption("paced");
    await page.locator(".word-limits").getByLabel("Introduction").fill("120");
    await page.getByLabel("What is spoken of each answer").selectOption("opening");
    await page.getByRole("button", { name: "Save the voice settings" }).click();
    await page.locator(".voice-settings .ok").waitFor();
    await page.reload();
    await voices.first().waitFor();
    expect(await page.getByLabel("Admin token").count()).toBe(0);
    expect(await page.getByLabel("Alpha").inputValue()).toBe("echo");
    expect(await page.getByLabel("Keep the text with the audio").inputValue()).toBe("paced");
    expect(await page.locator(".word-limits").getByLabel("Introduction").inputValue()).toBe("120");
    expect(await page.getByLabel("What is spoken of each answer").inputValue()).toBe("opening");
    // Back to the voice's own way: the setting is unset again, the rest kept.
    await page.getByLabel("What is spoken of each answer").selectOption("");
    await page.getByRole("button", { name: "Save the voice settings" }).click();
    await page.locator(".voice-settings .ok").waitFor();
    const stored = await page.evaluate(async (token) => {
      const res = await fetch("/api/v1/admin/debate/voice-settings", { headers: { authorization: `Bearer ${token}` } });
      return (await res.json()) as { spoken?: string; pacing: string };
    }, LAYOUT_ADMIN_TOKEN);
    expect({ spoken: stored.spoken, pacing: stored.pacing }).toEqual({ spoken: undefined, pacing: "paced" });

    // Signing out asks for the token again.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Admin token").waitFor();
    expect(await page.locator(".voice-settings").count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("#history shows when each conversation was started, the order it is listed in", async () => {
    const { page, errors, server } = await open({}, undefined, "en-US");
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
    const listed = (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as {
      conversations: { id: string; createdAt: string; updatedAt: string }[];
    };
    expect(listed.conversations.map((c) => c.id)).toEqual(["second", "first"]);

    await page.goto(`${page.url().split("#")[0]}#history`);
    const rows = page.locator(".conversations li");
    await rows.nth(1).waitFor();
    const shown = await rows.evaluateAll((lis) => lis.map((li) => li.querySelector(".note")!.textContent));
    // The reader's own way of writing a time (this browser's en-US), for the times the server gave.
    const written = (iso: string) => page.evaluate((at) => new Date(at).toLocaleString("en-US"), iso);
    for (const [i, c] of listed.conversations.entries()) expect(shown[i]).toContain(await written(c.createdAt));
    const first = listed.conversations[1];
    expect(Date.parse(first.updatedAt) - Date.parse(first.createdAt)).toBeGreaterThan(2_000);
    expect(shown[1]).not.toContain(await written(first.updatedAt));
    // So the times read in order: newest first.
    const times = await rows.locator("time").evaluateAll((ts) => ts.map((t) => Date.parse(t.getAttribute("datetime")!)));
    expect(times).toHaveLength(2);
    expect(times[0]).toBeGreaterThan(times[1]);
    expect(errors).toEqual([]);
  });

  it("shows the user's latest `npm run eval` report: a line on a new chat, the table and the rounds under Evidence", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-data-"));
    const env = { PATH: process.env.PATH, DEBATT_DATA_DIR: dataDir, SIMULATED_ACCURACY: "0.8", SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0" };
    const cli = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "cli/eval.ts",
        "--n",
        "3",
        "--tasks",
        "letters",
        "--arms",
        "single,majority,debatt",
        "--participants",
        "call_grok,call_claude,call_gpt",
      ],
      { env, encoding: "utf8" },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const { page, errors } = await open({ DEBATT_DATA_DIR: dataDir }, undefined, "en-US");
    const note = page.locator(".latest-evaluation");
    await note.waitFor();
    expect(await note.innerText()).toMatch(/^Your latest evaluation \(simulated models\): .*(majority|debatt) \d+\.\d %.* · details$/);
    await note.locator("a").click();
    const rows = page.locator(".evidence-table tbody tr");
    await rows.first().waitFor();
    // Three single models, the majority and /debatt, on the one task.
    expect(await rows.count()).toBe(5);
    const majority = await page.locator(".evidence-table tr.majority").innerText();
    expect(majority).toMatch(/majority\s+letters\s+\d+\.\d %/);
    expect(await page.locator(".evidence").innerText()).toContain("Simulated models");
    expect(await page.locator(".evidence-verdict li").count()).toBe(3);
    // The whole table fits a desktop screen.
    const table = await page.locator(".evidence-table").evaluate((el) => el.getBoundingClientRect().width <= el.parentElement!.clientWidth);
    expect(table).toBe(true);
    expect(await page.locator(".evidence-rounds li").count()).toBe(3);
    expect(await accessibilityViolations(page)).toEqual([]);
    // In Swedish too.
    await page.locator(".lang-switch select").selectOption("sv");
    await page.getByText("Hjälper det att överlägga?").waitFor();
    // Swedish writes its decimals with a comma.
    expect(await page.locator(".evidence-table tr.majority").innerText()).toMatch(/\d+,\d %/);
    expect(errors).toEqual([]);
  });

  it("shows the leaderboard of the history: a chart and a table of the ratings, the biases, filters by format, in Swedish too", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "debatt-data-"));
    const env = { PATH: process.env.PATH, DEBATT_DATA_DIR: dataDir, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0" };
    const cli = spawnSync(process.execPath, ["--import", "tsx", "cli/debate.ts", "--participants", "grok,claude,gemini,oneseek", "/debatt Bör AI regleras?"], {
      env,
      encoding: "utf8",
    });
    expect(cli.status, cli.stderr).toBe(0);
    const { page, errors } = await open({ DEBATT_DATA_DIR: dataDir }, undefined, "en-US");
    await page.getByRole("link", { name: "Leaderboard" }).click();
    const rows = page.locator(".leaderboard-table tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(4);
    expect(await page.locator(".leaderboard-chart .chart-score").count()).toBe(4);
    expect(await page.locator(".leaderboard-summary").innerText()).toBe("4 votes in 1 run · all formats · all time");
    expect(await page.locator(".leaderboard-biases li").count()).toBe(5);
    expect(await page.locator(".leaderboard").innerText()).toContain("simulated models");
    expect(await accessibilityViolations(page)).toEqual([]);
    // No /vote was run: filtered to /vote, nothing is left.
    await page.locator(".leaderboard-filters select").selectOption("vote");
    await page.getByText("0 votes in 0 runs · vote · all time").waitFor();
    expect(await rows.count()).toBe(0);
    await page.locator(".lang-switch select").selectOption("sv");
    await page.getByText("0 röster i 0 körningar · vote · all tid").waitFor();
    expect(errors).toEqual([]);
  });

  it("fills every card at once in a simultaneous /debatt, and ends with the vote and the synthesis", async () => {
    const { page, errors } = await open({ SIMULATED_LATENCY_MS: "200", SIMULATED_CHUNK_DELAY_MS: "15" }, undefined, "en-US");
    await ask(page, "/debatt --order simultaneous Should cities ban cars?");
    // Several participants write at the same time.
    await page.waitForFunction(() => document.querySelectorAll(".card.speaking").length >= 4, undefined, { timeout: 30_000 });
    await page.locator(".synthesis").first().waitFor({ timeout: 60_000 });
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 60_000 });
    expect(await page.locator(".card.speaking").count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("takes part in a /debatt: the reader joins under a name, writes each turn, passes, votes, and the arena waits for them", async () => {
    const { page, errors } = await open({ SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", DEBATE_PARTICIPANTS: TWO_MODELS }, undefined, "en-US");
    await page.locator("#message").fill("/debatt Should cities ban cars?");
    await page.getByLabel("Take part yourself").check();
    expect(await page.locator("#message").inputValue()).toBe("/debatt --with-me Should cities ban cars?");
    await page.getByLabel("Your name in the debate").fill("Ada");
    await page.locator("#message").press("Enter");

    const panel = page.locator("form.person-input");
    await panel.getByRole("heading", { name: "Your turn — round 1: Introduction" }).waitFor({ timeout: 30_000 });
    const seat = page.locator('.card[data-participant="person"]');
    expect(await seat.locator("h3").innerText()).toBe("Ada");
    expect(await seat.locator(".badge").allInnerTexts()).toEqual(["you", "waiting for you"]);
    expect(await panel.getByRole("timer").innerText()).toMatch(/^\d+ s left$/);
    await page.screenshot({ path: `${ARTIFACTS}/with-me-turn.png`, fullPage: true });
    expect(await accessibilityViolations(page)).toEqual([]);
    // Over the round's word limit, the send button waits.
    await panel.getByLabel("Your turn").fill("word ".repeat(301));
    expect(await panel.getByText("301 of 300 words").count()).toBe(1);
    expect(await panel.getByRole("button", { name: "Send my turn" }).isDisabled()).toBe(true);
    await panel.getByLabel("Your turn").fill("Cars out of the centre, buses in.");
    await panel.getByRole("button", { name: "Send my turn" }).click();
    await panel.getByRole("heading", { name: "Your turn — round 2: Argument" }).waitFor({ timeout: 30_000 });
    await panel.getByRole("button", { name: "Pass" }).click();
    await panel.getByRole("heading", { name: "Your turn — round 3: Deepening" }).waitFor({ timeout: 30_000 });
    await panel.getByLabel("Your turn").fill("Measured, the air got better.");
    await panel.getByRole("button", { name: "Send my turn" }).click();
    await panel.getByRole("heading", { name: "Your vote" }).waitFor({ timeout: 30_000 });
    await panel.getByLabel("Claude").check();
    await panel.getByLabel("Why (optional)").fill("Best evidence.");
    await panel.getByRole("button", { name: "Vote" }).click();

    await page.locator(".winner").waitFor({ timeout: 60_000 });
    expect(await panel.count()).toBe(0);
    expect(await page.locator(".ballots > li", { hasText: "Ada → Claude: Best evidence." }).count()).toBe(1);
    // Round 2 shows the pass; round 1 their words.
    await page.getByRole("tab", { name: /Round 2/ }).click();
    expect(await seat.innerText()).toContain("passed");
    await page.getByRole("tab", { name: /Round 1/ }).click();
    expect(await seat.innerText()).toContain("Cars out of the centre, buses in.");
    expect(errors).toEqual([]);
  });

  it("keeps what the reader wrote when their time runs out: the card says it was skipped, and what was not sent", async () => {
    const { page, errors } = await open({
      SIMULATED_LATENCY_MS: "0",
      SIMULATED_CHUNK_DELAY_MS: "0",
      DEBATE_PARTICIPANTS: TWO_MODELS,
      PERSON_INPUT_TIMEOUT_MS: "2000",
    });
    await page.locator("#message").fill("/debatt --with-me Ska städer förbjuda bilar?");
    await page.locator("#message").press("Enter");
    const panel = page.locator("form.person-input");
    await panel.getByRole("heading", { name: "Din tur — runda 1: Introduktion" }).waitFor({ timeout: 30_000 });
    await panel.getByLabel("Ditt inlägg").fill("Bilfritt i centrum, men");
    const seat = page.locator('.card[data-participant="person"]');
    await seat.getByText("hoppades över: inget svar i tid").waitFor({ timeout: 10_000 });
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.getByRole("tab", { name: /Runda 1/ }).click();
    expect(await seat.locator(".unsent").innerText()).toBe("Skickades inte: Bilfritt i centrum, men");
    expect(errors).toEqual([]);
  });

  it("asks again when a joined debate is reopened: followed live while it waits, and from its checkpoint after it was stopped", async () => {
    const { page, errors, server } = await open(
      { SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", DEBATE_PARTICIPANTS: TWO_MODELS },
      undefined,
      "en-US",
    );
    await page.locator("#message").fill("/debatt --with-me Should cities ban cars?");
    await page.locator("#message").press("Enter");
    const panel = page.locator("form.person-input");
    await panel.getByRole("heading", { name: "Your turn — round 1: Introduction" }).waitFor({ timeout: 30_000 });
    const { conversations } = (await (await fetch(`${server.url}/api/v1/conversations`)).json()) as { conversations: { id: string }[] };
    const id = conversations[0].id;
    const run = ((await (await fetch(`${server.url}/api/v1/conversations/${id}`)).json()) as { messages: { id: string; role: string }[] }).messages.find(
      (m) => m.role === "assistant",
    )!.id;

    /** Reloads the page: it asks for the turn `asked` again (with a clock or not); `text` is sent, and the debate goes on to `next`. */
    const answerAfterReload = async (asked: string, clocks: number, text: string, next: string) => {
      await page.reload();
      await panel.getByRole("heading", { name: asked }).waitFor({ timeout: 30_000 });
      expect(await panel.getByRole("timer").count()).toBe(clocks);
      await panel.getByLabel("Your turn").fill(text);
      await panel.getByRole("button", { name: "Send my turn" }).click();
      await panel.getByRole("heading", { name: next }).waitFor({ timeout: 30_000 });
    };

    // Reloaded on the conversation while the debate waits: the page follows it live and asks again.
    await page.goto(`${server.url}/#c/${id}`);
    await answerAfterReload("Your turn — round 1: Introduction", 1, "Cars out, trams in.", "Your turn — round 2: Argument");
    // Stopped while it waits, then reopened: the question is asked from its checkpoint, without a
    // clock; the debate goes on in a new run, followed here to its end.
    expect((await fetch(`${server.url}/api/v1/debates/${run}/cancel`, { method: "POST" })).status).toBe(202);
    await page.locator("button.stop").waitFor({ state: "detached", timeout: 30_000 });
    await answerAfterReload("Your turn — round 2: Argument", 0, "Still: trams.", "Your turn — round 3: Deepening");
    await panel.getByRole("button", { name: "Pass" }).click();
    await panel.getByRole("heading", { name: "Your vote" }).waitFor({ timeout: 30_000 });
    await panel.getByLabel("Grok").check();
    await panel.getByRole("button", { name: "Vote" }).click();
    await page.locator(".winner").waitFor({ timeout: 60_000 });
    await page.getByRole("tab", { name: /Round 2/ }).click();
    expect(await page.locator('.card[data-participant="person"]').innerText()).toContain("Still: trams.");
    expect(errors).toEqual([]);
  });
});
