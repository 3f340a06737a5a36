import { MemorySaver } from "@langchain/langgraph";
import MarkdownIt from "markdown-it";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "playwright-core";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from "./support/browser.js";
import { withOverrides, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks, sqliteHistory } from "./support/history-db.js";
import { builtPage, builtPageDir, exportConversation, PAGE_BUILDS } from "../history/export.js";
import { DebattError } from "../state/errors.js";
import { translate } from "../state/messages/index.js";
import { postDeliberate, readSse, startApp } from "./support/http.js";

const ADMIN = "admin-token-0123456789";
const THREE = ["call_grok", "call_claude", "call_gpt"];

/**
 * Exports and read-only links through the API. The HTML export and the shared page are drawn by
 * the built page: tests/arena.e2e.test.ts opens them in a browser.
 */
describe.each(HISTORY_DATABASES)("exports and read-only links on $db", (database) => {
  const hooks = historyDatabaseHooks(database);

  async function app(options: { script?: Script } = {}) {
    const db = await hooks.open();
    const { deps } = testDeps({ script: options.script, settings: { auth: "tokens", adminToken: ADMIN } });
    const started = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
    hooks.later(started.close);
    const as = (token: string) => {
      const headers = { authorization: `Bearer ${token}` };
      return {
        get: (path: string, extra: Record<string, string> = {}) => fetch(`${started.url}${path}`, { headers: { ...headers, ...extra } }),
        post: (path: string) => fetch(`${started.url}${path}`, { method: "POST", headers }),
        del: (path: string) => fetch(`${started.url}${path}`, { method: "DELETE", headers }),
      };
    };
    const user = async (name: string) => {
      const res = await fetch(`${started.url}/api/v1/admin/users`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      const { token } = (await res.json()) as { token: string };
      return { ...as(token), token };
    };
    return { ...started, user, rows: db.rows };
  }

  /** Runs a /vote on "Best language for web APIs?" as the user of `token`, to its end; its conversation's id. */
  async function askedVote(url: string, token: string): Promise<string> {
    const { events } = await readSse(
      await postDeliberate(
        url,
        { question: "Best language for web APIs?", mode: "vote", modeConfig: { councilModels: THREE } },
        { headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } },
      ),
    );
    expect(events.at(-1)!.event).toBe("done");
    return String(events[0].data.thread_id);
  }

  /** Status and error code of a refused request. */
  const refusal = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

  it.skipIf(database.skip)(
    "exports a /vote as JSON and Markdown: who said what, the votes with their reasons and labels, the result and the cost",
    async () => {
      const { url, user } = await app();
      const ada = await user("Ada");
      const id = await askedVote(url, ada.token);
      const path = `/api/v1/conversations/${id}/export`;

      const json = await ada.get(`${path}?format=json`);
      expect(json.status).toBe(200);
      expect(json.headers.get("content-type")).toContain("application/json");
      expect(json.headers.get("content-disposition")).toMatch(/^attachment; filename="debatt-.+\.json"$/);
      const exported = (await json.json()) as { format: string; version: number; conversation: unknown };
      expect(exported).toMatchObject({ format: "debatt-conversation", version: 1 });
      // The conversation exactly as the history API shows it.
      expect(exported.conversation).toEqual(await (await ada.get(`/api/v1/conversations/${id}`)).json());
      const answer = (
        exported.conversation as {
          messages: { role: string; result: { voteRound: { labelToModel: Record<string, string>; votes: { voteText: string }[] } }; usage?: unknown }[];
        }
      ).messages[1];
      expect(Object.keys(answer.result.voteRound.labelToModel)).toHaveLength(3);
      expect(answer.result.voteRound.votes).toHaveLength(3);

      const md = await ada.get(`${path}?format=md&lang=en`);
      expect(md.status).toBe(200);
      expect(md.headers.get("content-type")).toContain("text/markdown");
      const text = await md.text();
      expect(text).toContain("## Question 1\n\n> Best language for web APIs?");
      expect(text).toContain("### Who wrote which answer\n\n| Label | Model |");
      const labels = answer.result.voteRound.labelToModel;
      for (const [label, model] of Object.entries(labels)) expect(text).toContain(`| ${label} | ${model} |`);
      // Each vote under its voter, what it chose named by label and model, its reasons quoted.
      expect(text.match(/ · vote\*\* — voted for Response [A-C] \(/g)).toHaveLength(3);
      for (const v of answer.result.voteRound.votes) expect(text).toContain(`> ${v.voteText.split("\n")[0]}`);
      // The count, as a table of what was voted for (a label named by its model too).
      expect(text).toContain("### The count\n\n| Voted for | Votes |\n|---|---|\n");
      expect(text).toContain(`| Response A (${labels["Response A"]}) | 3 |`);
      // The winner's answer is the answer: shown once.
      expect(text).toContain("### The winner");
      expect(text).not.toMatch(/### The answer\n/);
      expect(text).toMatch(/_complete · \d+ model calls · /);
      // In Swedish, from the browser's language.
      expect(await (await ada.get(`${path}?format=md`, { "accept-language": "sv-SE,sv;q=0.9" })).text()).toContain("## Fråga 1");

      expect(await refusal(await ada.get(`${path}?format=pdf`))).toEqual([400, "invalid_export_format"]);
      expect(await refusal(await ada.get(`${path}?lang=de`))).toEqual([400, "invalid_lang"]);
      expect(await refusal(await ada.get(`/api/v1/conversations/nope!/export`))).toEqual([400, "invalid_conversation_id"]);
      const bob = await user("Bob");
      expect(await refusal(await bob.get(`${path}?format=json`))).toEqual([404, "conversation_not_found"]);
      expect((await fetch(`${url}${path}?format=json`)).status).toBe(401);
    },
  );

  it.skipIf(database.skip)("exports inert: a model's markup runs in no Markdown renderer, and the HTML file loads nothing, wherever it is opened", async () => {
    // A server that counts what is asked of it: a tracking pixel, a script, a frame.
    const asked: string[] = [];
    const pixel = createServer((req, res) => (asked.push(req.url ?? ""), res.end()));
    await new Promise<void>((resolve) => pixel.listen(0, "127.0.0.1", resolve));
    hooks.later(() => new Promise<void>((resolve) => pixel.close(() => resolve())));
    const at = `http://127.0.0.1:${(pixel.address() as AddressInfo).port}`;
    const hostile = [
      `A fine answer ![pixel](${at}/markdown.gif) with <img src="${at}/img.gif" onerror="alert(1)">.`,
      `<script src="${at}/script.js"></script><script>alert(2)</script><iframe src="${at}/frame"></iframe>`,
      "<!-- a comment --> and `<b>code</b>` kept as code:",
      "~~~html\n<div>in a fence</div>\n~~~",
    ].join("\n\n");
    const { url, user } = await app({ script: withOverrides((req) => (req.phase === "answer" ? hostile : undefined)) });
    const ada = await user("Ada");
    const path = `/api/v1/conversations/${await askedVote(url, ada.token)}/export`;

    // Markdown: the markup is text, escaped outside code; a renderer that passes HTML makes no element of it.
    const md = await (await ada.get(`${path}?format=md&lang=en`)).text();
    expect(md).toContain(`\\<img src="${at}/img.gif" onerror="alert(1)">`);
    expect(md).toContain("`<b>code</b>`");
    expect(md).toContain("~~~html\n> <div>in a fence</div>");
    const rendered = new MarkdownIt({ html: true }).render(md);
    expect(rendered).not.toMatch(/<(script|iframe|img src="[^"]*img\.gif|!--)/i);

    // HTML: the file carries its policy (and the download its header): nothing but its own code runs or loads.
    const download = await ada.get(`${path}?format=html&lang=en`);
    expect(download.headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'sha256-.*img-src data:.*frame-ancestors 'none'$/);
    const html = await download.text();
    expect(html).toMatch(/<head>\s*<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^"]*img-src data:/);
    if (!haveChromium) return;
    const file = join(mkdtempSync(join(tmpdir(), "debatt-export-")), "run.html");
    writeFileSync(file, html);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (d) => (dialogs.push(d.message()), void d.dismiss()));
      // What the policy refused, as the page hears it.
      await page.addInitScript(() => {
        (window as unknown as { refused: string[] }).refused = [];
        document.addEventListener("securitypolicyviolation", (e) => (window as unknown as { refused: string[] }).refused.push(e.blockedURI));
      });
      await page.goto(`file://${file}`);
      await page.locator(".read-only").waitFor();
      // The answers are drawn, their Markdown image included: the policy refuses it, and the pixel is never asked for.
      await page.waitForFunction(() => (window as unknown as { refused: string[] }).refused.some((u) => u.endsWith("/markdown.gif")));
      expect({ asked, dialogs }).toEqual({ asked: [], dialogs: [] });
    } finally {
      await browser.close();
    }
  });

  it.skipIf(database.skip)("makes a read-only link only for the owner, replaces it when made again, and withdraws it", async () => {
    const { url, user, rows } = await app();
    const ada = await user("Ada");
    const bob = await user("Bob");
    const events = (
      await readSse(
        await postDeliberate(
          url,
          { question: "Tabs or spaces?", mode: "vote", modeConfig: { councilModels: THREE } },
          { headers: { authorization: `Bearer ${ada.token}`, "content-type": "application/json" } },
        ),
      )
    ).events;
    const id = String(events[0].data.thread_id);
    const share = `/api/v1/conversations/${id}/share`;
    expect(await refusal(await bob.post(share))).toEqual([404, "conversation_not_found"]);
    expect(await refusal(await ada.del(share))).toEqual([404, "share_not_found"]);

    const status = async () => (await (await ada.get(share)).json()) as { shared: boolean; createdAt: string | null };
    expect(await status()).toEqual({ shared: false, createdAt: null });
    expect(await refusal(await bob.get(share))).toEqual([404, "conversation_not_found"]);
    const first = await ada.post(share);
    expect(first.status).toBe(201);
    expect(await status()).toEqual({ shared: true, createdAt: expect.any(String) });
    const made = (await first.json()) as { url: string; token: string };
    expect(made.url).toMatch(/^\/shared\/[A-Za-z0-9_-]{43}$/);
    const second = (await (await ada.post(share)).json()) as { url: string };
    expect(second.url).not.toBe(made.url);
    // The earlier link stopped working when the new one was made.
    const gone = await fetch(`${url}${made.url}`, { headers: { "accept-language": "en" } });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("This link does not open anything");
    expect((await fetch(`${url}/shared/not-a-token`)).status).toBe(404);

    // Links made at once leave one.
    await Promise.all(Array.from({ length: 6 }, () => ada.post(share)));
    expect((await rows("shares")).filter((r) => r.conversation_id === id)).toHaveLength(1);

    expect((await ada.del(share)).status).toBe(204);
    expect((await fetch(`${url}${second.url}`)).status).toBe(404);
    expect((await status()).shared).toBe(false);
    // Deleting the conversation deletes its link.
    const third = (await (await ada.post(share)).json()) as { url: string };
    expect((await ada.del(`/api/v1/conversations/${id}`)).status).toBe(204);
    expect((await fetch(`${url}${third.url}`)).status).toBe(404);

    // Removing a user withdraws the links of their conversations: nobody could withdraw them after.
    const kept = String(
      (
        await readSse(
          await postDeliberate(
            url,
            { question: "Tabs?", mode: "vote", modeConfig: { councilModels: THREE } },
            { headers: { authorization: `Bearer ${bob.token}`, "content-type": "application/json" } },
          ),
        )
      ).events[0].data.thread_id,
    );
    expect((await bob.post(`/api/v1/conversations/${kept}/share`)).status).toBe(201);
    expect((await rows("shares")).some((r) => r.conversation_id === kept)).toBe(true);
    const bobId = (
      (await (await fetch(`${url}/api/v1/admin/users`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { users: { id: string; name: string }[] }
    ).users.find((u) => u.name === "Bob")!.id;
    expect((await fetch(`${url}/api/v1/admin/users/${bobId}`, { method: "DELETE", headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(204);
    expect((await rows("shares")).some((r) => r.conversation_id === kept)).toBe(false);
  });
});

describe("the Markdown export of a person's name", () => {
  it("writes it as plain text: no HTML, no link, no broken table, whatever the name", async () => {
    const db = await sqliteHistory();
    try {
      const at = new Date();
      const name = "<script>alert(1)</script> **Ada** [x](http://evil.example) | y";
      await db.history.startRun({
        conversationId: "c1",
        messageId: "m1",
        userId: "local",
        mode: "debatt",
        title: "<img src=x onerror=alert(1)>",
        question: "/debatt X",
        at,
      });
      await db.history.addStages([
        {
          id: "m1:turn",
          messageId: "m1",
          stageType: "debatt_answer",
          stageOrder: 1,
          seq: 0,
          model: "person",
          role: "debater",
          content: "My turn: <script>alert(2)</script> and a < b.",
          parsedData: { round: 1, display: name },
          responseTimeMs: 1,
        },
        {
          id: "m1:vote",
          messageId: "m1",
          stageType: "debatt_vote",
          stageOrder: 4,
          seq: 0,
          model: "x-ai/grok-4",
          role: "voter",
          content: "Because.",
          parsedData: { display: "Grok", votedFor: name },
          responseTimeMs: 1,
        },
      ]);
      const conversation = (await db.history.conversation("c1"))!;
      const { body } = await exportConversation(db.history, conversation, "md", (key, values) => translate("en", key, values), "en");
      expect(body).not.toMatch(/(?<!\\)<(script|img)|(?<!\\)\]\(http/);
      expect(body).toContain("\\<script\\>alert(1)\\</script\\> \\*\\*Ada\\*\\* \\[x\\](http://evil.example) \\| y");
      expect(body.split("\n")[0]).toBe("# \\<img src=x onerror=alert(1)\\>");
      // What the person wrote is plain text too: shown as typed, never run.
      expect(body).toContain("> My turn: \\<script>alert(2)\\</script> and a < b.");
    } finally {
      await db.close();
    }
  });
});

describe("where the HTML export finds the built page", () => {
  /** A folder holding a built page whose index.html says `name`, written `secondsAgo` ago. */
  function build(root: string, folder: string, name: string, secondsAgo: number) {
    const dir = join(root, folder);
    mkdirSync(join(dir, "assets"), { recursive: true });
    writeFileSync(join(dir, "index.html"), `<html lang="en"><title>debatt</title><body>${name}</body></html>`);
    writeFileSync(join(dir, "assets", "page.js"), `/* ${name} */`);
    const at = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(dir, "index.html"), at, at);
    return dir;
  }

  it("looks where `npm run build:web` and `npm run build` (so `npm start`) put it", () => {
    expect(PAGE_BUILDS.map((dir) => relative(process.cwd(), dir).split(sep).join("/"))).toEqual(["web/dist", "dist/web/dist"]);
  });

  it("finds the page that only `npm start` built (dist/web/dist), and reads its files", () => {
    const root = mkdtempSync(join(tmpdir(), "debatt-page-"));
    try {
      const started = build(root, "dist/web/dist", "started", 0);
      const page = builtPage([join(root, "web/dist"), started]);
      expect(page.dir).toBe(started);
      expect(page.index).toContain("started");
      expect(page.asset("./assets/page.js")).toBe("/* started */");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("prefers the newer of the two builds, whichever it is", () => {
    const root = mkdtempSync(join(tmpdir(), "debatt-page-"));
    try {
      const web = build(root, "web/dist", "build:web", 60);
      const dist = build(root, "dist/web/dist", "build", 0);
      expect(builtPageDir([web, dist])).toBe(dist);
      const later = new Date();
      utimesSync(join(web, "index.html"), later, new Date(later.getTime() + 5000));
      expect(builtPageDir([web, dist])).toBe(web);
      expect(builtPage([web, dist]).index).toContain("build:web");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("still says `page_not_built` when neither is built", () => {
    const root = mkdtempSync(join(tmpdir(), "debatt-page-"));
    try {
      mkdirSync(join(root, "web/dist"), { recursive: true }); // an empty folder is not a built page
      expect(builtPageDir([join(root, "web/dist"), join(root, "dist/web/dist")])).toBeUndefined();
      let thrown: unknown;
      try {
        builtPage([join(root, "web/dist"), join(root, "dist/web/dist")]);
      } catch (err) {
        thrown = err;
      }
      expect(DebattError.isInstance(thrown) && thrown.code).toBe("page_not_built");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
