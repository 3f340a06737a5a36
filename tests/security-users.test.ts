import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadSettings, type Settings } from "../state/config.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";
import { withOverrides } from "./support/fake-model.js";
import { startServerProcess } from "./support/server-process.js";

const ADMIN = "admin-token-0123456789";

describe("who may use the server (AUTH)", () => {
  it("is none by default on loopback, tokens elsewhere; AUTH=none off loopback stops start-up", async () => {
    expect(loadSettings({}).auth).toBe("none");
    expect(loadSettings({ HOST: "::1" }).auth).toBe("none");
    expect(loadSettings({ HOST: "0.0.0.0" }).auth).toBe("tokens");
    expect(loadSettings({ HOST: "127.0.0.1", AUTH: "tokens" }).auth).toBe("tokens");
    expect(() => loadSettings({ HOST: "0.0.0.0", AUTH: "none" })).toThrow(/AUTH=none is refused on HOST=0\.0\.0\.0/);
    expect(() => loadSettings({ AUTH: "maybe" })).toThrow(/AUTH must be none or tokens/);

    // The proxies to believe: none by default; never "any" (a client could forge its address).
    expect(loadSettings({}).trustProxy).toBe(false);
    expect(loadSettings({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
    expect(loadSettings({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadSettings({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.4" }).trustProxy).toEqual(["10.0.0.0/8", "192.168.1.4"]);
    expect(loadSettings({ TRUST_PROXY: "::1, fd00::/8" }).trustProxy).toEqual(["::1", "fd00::/8"]);
    for (const bad of ["true", "*", "everyone", "loopback,", "10.0.0.0/99", "abc", "1.2.3", "10.0.0.0/8/1"])
      expect(() => loadSettings({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be/);

    const server = startServerProcess({ HOST: "0.0.0.0", AUTH: "none" });
    await expect(server).rejects.toThrow(/server exited with 2: .*AUTH=none is refused/s);
  });
});

describe.each(HISTORY_DATABASES)("users and tokens on $db", (database) => {
  const { skip } = database;
  const hooks = historyDatabaseHooks(database);

  async function app(settings: Partial<Settings> = {}, script?: NonNullable<Parameters<typeof testDeps>[0]>["script"]) {
    const db = await hooks.open();
    const { deps, models } = testDeps({ settings: { auth: "tokens", adminToken: ADMIN, ...settings }, script });
    const started = await startApp(deps, { history: db.history });
    hooks.later(started.close);
    const admin = (method: string, path: string, body?: unknown) =>
      fetch(`${started.url}/api/v1/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    return { ...started, db, models, admin };
  }

  it.skipIf(skip)("refuses every /api/v1 route without a user (401), but not /healthz", async () => {
    const { url, models } = await app();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    for (const [method, path] of [
      ["GET", "/api/v1/conversations"],
      ["POST", "/api/v1/chat/stream"],
      ["GET", "/api/v1/debates/x/events"],
      ["POST", "/api/v1/deliberate/stream"],
    ]) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify({ message: "/debatt X" }) : undefined,
      });
      expect(res.status, path).toBe(401);
      expect(res.headers.get("www-authenticate"), path).toMatch(/^Bearer/);
      expect((await res.json()).error.code, path).toBe("unauthorized");
    }
    const forged = await fetch(`${url}/api/v1/conversations`, { headers: { authorization: "Bearer dbt_not-a-real-token" } });
    expect(forged.status).toBe(401);
    expect(models.calls).toHaveLength(0);
  });

  it.skipIf(skip)("admins add users (the token shown once, stored as a hash), list them without tokens, and revoke at once", async () => {
    const { url, db, admin } = await app();
    const created = await admin("POST", "/users", { name: "Ada" });
    expect(created.status).toBe(201);
    const ada = await created.json();
    expect(ada).toMatchObject({ id: expect.any(String), name: "Ada", token: expect.stringMatching(/^dbt_[\w-]{43}$/) });

    const stored = await db.rows("users");
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(ada.token);

    const list = await (await admin("GET", "/users")).json();
    expect(list.users).toEqual([{ id: ada.id, name: "Ada", createdAt: expect.any(String) }]);

    const asAda = { authorization: `Bearer ${ada.token}` };
    expect((await fetch(`${url}/api/v1/conversations`, { headers: asAda })).status).toBe(200);
    const run = await postChat(
      url,
      { message: "/debatt Bör AI regleras?", participants: ["call_grok", "call_claude"] },
      { headers: { ...asAda, "content-type": "application/json" } },
    );
    expect(run.status).toBe(200);
    expect((await readSse(run)).events.at(-1)!.event).toBe("done");

    expect((await admin("DELETE", `/users/${ada.id}`)).status).toBe(204);
    expect((await fetch(`${url}/api/v1/conversations`, { headers: asAda })).status).toBe(401);
    expect((await admin("DELETE", `/users/${ada.id}`)).status).toBe(404);

    for (const bad of [{}, { name: "" }, { name: "x".repeat(81) }, { name: "a\u0007b" }, { name: 5 }]) {
      expect((await admin("POST", "/users", bad)).status, JSON.stringify(bad)).toBe(400);
    }
    // A user's token is no admin token.
    const bob = await (await admin("POST", "/users", { name: "Bob" })).json();
    expect((await fetch(`${url}/api/v1/admin/users`, { headers: { authorization: `Bearer ${bob.token}` } })).status).toBe(401);
  });

  it.skipIf(skip)("signs in with a session of its own (HttpOnly, SameSite=Strict, never the token) that signing out and removing the user end", async () => {
    const { url, admin, db } = await app();
    const ada = await (await admin("POST", "/users", { name: "Ada" })).json();
    expect(await (await fetch(`${url}/api/v1/session`)).json()).toEqual({ auth: "tokens", user: null, admin: true });

    const wrong = await fetch(`${url}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: "nope" }),
    });
    expect(wrong.status).toBe(401);

    const signIn = async () => {
      const res = await fetch(`${url}/api/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: ada.token }),
      });
      expect(res.status).toBe(200);
      return res.headers.get("set-cookie")!;
    };
    const cookie = await signIn();
    expect(cookie).toMatch(/^debatt_session=dbs_[\w-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).not.toContain(ada.token);
    // The server keeps the session's hash, never the id or the token.
    const stored = JSON.stringify(await db.rows("sessions"));
    expect(stored).not.toContain(cookie.split(";")[0].split("=")[1]);
    expect(stored).not.toContain(ada.token);
    const session = cookie.split(";")[0];
    expect(await (await fetch(`${url}/api/v1/session`, { headers: { cookie: session } })).json()).toMatchObject({
      auth: "tokens",
      user: { id: ada.id, name: "Ada" },
    });
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie: session } })).status).toBe(200);

    const signOut = await fetch(`${url}/api/v1/session`, { method: "DELETE", headers: { cookie: session } });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get("set-cookie")).toMatch(/debatt_session=;.*Expires=Thu, 01 Jan 1970/i);
    // A copy of the cookie kept after signing out no longer works.
    const after = await fetch(`${url}/api/v1/conversations`, { headers: { cookie: session } });
    expect(after.status).toBe(401);
    expect((await after.json()).error.message).toMatch(/session has ended/);

    // Removing the user ends their other sessions at once.
    const other = (await signIn()).split(";")[0];
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie: other } })).status).toBe(200);
    expect((await admin("DELETE", `/users/${ada.id}`)).status).toBe(204);
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie: other } })).status).toBe(401);

    // The admin's session holds while ADMIN_TOKEN is the one it was opened with.
    const adminSignIn = await fetch(`${url}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: ADMIN }),
    });
    const adminSession = adminSignIn.headers.get("set-cookie")!.split(";")[0];
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie: adminSession } })).status).toBe(200);
    // The database keeps nothing that would let ADMIN_TOKEN, an operator's choice, be guessed offline.
    expect(JSON.stringify(await db.rows("sessions"))).not.toContain(createHash("sha256").update(ADMIN).digest("hex"));
    const rotated = testDeps({ settings: { auth: "tokens", adminToken: "another-admin-token-987654" } });
    const next = await startApp(rotated.deps, { history: db.history });
    hooks.later(next.close);
    expect((await fetch(`${next.url}/api/v1/conversations`, { headers: { cookie: adminSession } })).status).toBe(401);
    // An ended session is no guess: a browser that keeps sending it never locks its address out.
    for (let i = 0; i < 25; i++) expect((await fetch(`${next.url}/api/v1/session`, { headers: { cookie: adminSession } })).status).toBe(200);
    expect(await (await fetch(`${next.url}/api/v1/session`, { headers: { cookie: adminSession } })).json()).toMatchObject({ user: null });
    expect((await fetch(`${next.url}/api/v1/conversations`, { headers: { authorization: "Bearer a-guess" } })).status).toBe(401);
  });

  it.skipIf(skip)("behind a trusted proxy, marks the cookie Secure when the client came over HTTPS", async () => {
    const { url, admin } = await app({ trustProxy: ["loopback"] });
    const ada = await (await admin("POST", "/users", { name: "Ada" })).json();
    const signIn = (headers: Record<string, string>) =>
      fetch(`${url}/api/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ token: ada.token }),
      });
    expect((await signIn({ "x-forwarded-proto": "https" })).headers.get("set-cookie")).toMatch(/; Secure/i);
    expect((await signIn({ "x-forwarded-proto": "http" })).headers.get("set-cookie")).not.toMatch(/Secure/i);
  });

  it.skipIf(skip)("ends a removed user's runs and streams: at once through the admin API, within seconds when removed elsewhere", async () => {
    const slow = withOverrides((req) => (req.phase === "turn" ? { text: "A considered argument.", latencyMs: 400 } : undefined));
    const { url, admin, db } = await app({}, slow);
    for (const how of ["admin API", "terminal"] as const) {
      const ada = await (await admin("POST", "/users", { name: "Ada" })).json();
      const headers = { authorization: `Bearer ${ada.token}`, "content-type": "application/json" };
      const events: SseEvent[] = [];
      let removedAt = 0;
      await readSse(await postChat(url, { message: "/debatt Bör AI regleras?" }, { headers }), (e) => {
        events.push(e);
        if (removedAt || e.event !== "debate-participant-end") return;
        removedAt = Date.now();
        // Through the admin API, or as `npm run users -- remove` does: straight in the database.
        void (how === "admin API" ? admin("DELETE", `/users/${ada.id}`) : db.history.users.remove(ada.id));
      });
      expect(events.find((e) => e.event === "error")?.data, how).toMatchObject({ code: "user_removed" });
      expect(events.at(-1)!.event).toBe("done");
      expect(
        events.some((e) => e.event === "debate-synthesis-complete"),
        how,
      ).toBe(false);
    }
  });

  it.skipIf(skip)("lets ADMIN_TOKEN act as the admin's own user", async () => {
    const { url } = await app();
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
  });

  it.skipIf(skip)("throttles refused tokens per address (429 with Retry-After), GET /session's included", async () => {
    const { url } = await app();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await fetch(`${url}/api/v1/conversations`, { headers: { authorization: `Bearer guess-${i}` } })).status);
    // The session route is no free oracle: its guesses count too.
    for (let i = 0; i < 10; i++) statuses.push((await fetch(`${url}/api/v1/session`, { headers: { authorization: `Bearer guess-s${i}` } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 200)).toBe(true);
    for (const path of ["/api/v1/conversations", "/api/v1/session"]) {
      const last = await fetch(`${url}${path}`, { headers: { authorization: "Bearer guess-last" } });
      expect(last.status, path).toBe(429);
      expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await last.json()).error.code).toBe("too_many_attempts");
    }
    // ADMIN_TOKEN, which an operator chose, is not tried from a locked-out address at this door.
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(429);
  });

  it.skipIf(skip)("counts only refused credentials: dropped and open streams and many valid starts lock nobody out", async () => {
    const { url, admin } = await app({ runsPerMinute: 1_000, maxConcurrentRuns: 100, maxOpenStreams: 100 });
    const ada = await (await admin("POST", "/users", { name: "Ada" })).json();
    const asAda = { authorization: `Bearer ${ada.token}`, "content-type": "application/json" };
    // 25 debates opened and dropped as soon as they start, and 50 started at once.
    for (let i = 0; i < 25; i++) {
      const client = new AbortController();
      const res = await postChat(url, { message: "/compare Vad är 2+2?" }, { headers: asAda, signal: client.signal });
      expect(res.status).toBe(200);
      client.abort();
    }
    const many = await Promise.all(Array.from({ length: 50 }, () => postChat(url, { message: "/compare Vad är 2+2?" }, { headers: asAda })));
    expect(many.map((r) => r.status).every((s) => s === 200)).toBe(true);
    await Promise.all(many.map((r) => r.body?.cancel()));
    // No request without a token counts either.
    for (let i = 0; i < 25; i++) expect((await fetch(`${url}/api/v1/conversations`)).status).toBe(401);
    expect((await fetch(`${url}/api/v1/conversations`, { headers: asAda })).status).toBe(200);
    expect((await admin("GET", "/users")).status).toBe(200);
  });

  it.skipIf(skip)("behind a trusted proxy, locks out only the client that guessed, and never the admin from the admin API", async () => {
    const { url, admin } = await app({ trustProxy: ["loopback"] });
    const ada = await (await admin("POST", "/users", { name: "Ada" })).json();
    const from = (address: string, token: string) =>
      fetch(`${url}/api/v1/conversations`, { headers: { "x-forwarded-for": address, authorization: `Bearer ${token}` } });
    for (let i = 0; i < 20; i++) expect((await from("203.0.113.7", `guess-${i}`)).status).toBe(401);
    expect((await from("203.0.113.7", "guess-again")).status).toBe(429);
    // Others behind the same proxy are not locked out, and a user's own token works even from the guesser's address.
    expect((await from("198.51.100.2", "guess-other")).status).toBe(401);
    expect((await from("198.51.100.2", ada.token)).status).toBe(200);
    expect((await from("203.0.113.7", ada.token)).status).toBe(200);
    // Failures at the users' door do not lock the admin API, a door of its own.
    const adminFrom = (address: string, token: string) =>
      fetch(`${url}/api/v1/admin/users`, { headers: { "x-forwarded-for": address, authorization: `Bearer ${token}` } });
    expect((await adminFrom("203.0.113.7", ADMIN)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await adminFrom("203.0.113.7", `admin-guess-${i}`)).status).toBe(401);
    expect((await adminFrom("203.0.113.7", ADMIN)).status).toBe(429);
    expect((await adminFrom("198.51.100.2", ADMIN)).status).toBe(200);
  });

  it.skipIf(skip)("without a trusted proxy, X-Forwarded-For is ignored: a forged one dodges nothing", async () => {
    const { url } = await app();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${url}/api/v1/conversations`, { headers: { "x-forwarded-for": `192.0.2.${i}`, authorization: `Bearer guess-${i}` } });
      expect(res.status).toBe(401);
    }
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { "x-forwarded-for": "192.0.2.99", authorization: "Bearer guess" } })).status).toBe(429);
  });
});

describe("npm run users", () => {
  const run = promisify(execFile);
  it("adds a user (printing the token once), lists and removes them, in the environment's database", async () => {
    const env = { ...process.env, LC_ALL: "", LC_MESSAGES: "", LANG: "C.UTF-8", DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-users-")) };
    const cli = (...args: string[]) => run(process.execPath, ["--import", "tsx", "cli/users.ts", ...args], { env });
    const added = await cli("add", "Ada", "Lovelace");
    const token = /token \(shown only now\): (dbt_\S+)/.exec(added.stdout)![1];
    const id = /\(id ([\w-]+)\)/.exec(added.stdout)![1];
    const listed = await cli("list");
    expect(listed.stdout).toContain(`${id}  Ada Lovelace`);
    expect(listed.stdout).not.toContain(token);
    expect((await cli("remove", id)).stdout).toContain("no longer works");
    await expect(cli("remove", id)).rejects.toMatchObject({ code: 1 });
    await expect(cli("frobnicate")).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("usage: npm run users") });
    // In Swedish where the terminal is Swedish.
    const swedish = (...args: string[]) => run(process.execPath, ["--import", "tsx", "cli/users.ts", ...args], { env: { ...env, LANG: "sv_SE.UTF-8" } });
    expect((await swedish("add", "Grace")).stdout).toMatch(/token \(visas bara nu\): dbt_/);
    await expect(swedish("frobnicate")).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("användning: npm run users") });
  });
});
