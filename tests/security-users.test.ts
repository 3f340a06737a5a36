import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadSettings, type Settings } from "../state/config.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, readSse, startApp } from "./support/http.js";
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

    const server = startServerProcess({ HOST: "0.0.0.0", AUTH: "none" });
    await expect(server).rejects.toThrow(/server exited with 2: .*AUTH=none is refused/s);
  });
});

describe.each(HISTORY_DATABASES)("users and tokens on $db", (database) => {
  const { skip } = database;
  const hooks = historyDatabaseHooks(database);

  async function app(settings: Partial<Settings> = {}) {
    const db = await hooks.open();
    const { deps, models } = testDeps({ settings: { auth: "tokens", adminToken: ADMIN, ...settings } });
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
    for (const [method, path] of [["GET", "/api/v1/conversations"], ["POST", "/api/v1/chat/stream"], ["GET", "/api/v1/debates/x/events"], ["POST", "/api/v1/deliberate/stream"]]) {
      const res = await fetch(`${url}${path}`, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? JSON.stringify({ message: "/debatt X" }) : undefined });
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
    const run = await postChat(url, { message: "/debatt Bör AI regleras?", participants: ["call_grok", "call_claude"] }, { headers: { ...asAda, "content-type": "application/json" } });
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

  it.skipIf(skip)("signs in with a session cookie (HttpOnly, SameSite=Strict) that the page's requests carry, and signs out", async () => {
    const { url, admin } = await app();
    const ada = await (await admin("POST", "/users", { name: "Ada" })).json();
    expect(await (await fetch(`${url}/api/v1/session`)).json()).toEqual({ auth: "tokens", user: null, admin: true });

    const wrong = await fetch(`${url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: "nope" }) });
    expect(wrong.status).toBe(401);

    const signIn = await fetch(`${url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: ada.token }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^debatt_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const session = cookie.split(";")[0];
    expect(await (await fetch(`${url}/api/v1/session`, { headers: { cookie: session } })).json()).toMatchObject({ auth: "tokens", user: { id: ada.id, name: "Ada" } });
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie: session } })).status).toBe(200);

    const signOut = await fetch(`${url}/api/v1/session`, { method: "DELETE", headers: { cookie: session } });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get("set-cookie")).toMatch(/debatt_session=;.*Expires=Thu, 01 Jan 1970/i);
  });

  it.skipIf(skip)("lets ADMIN_TOKEN act as the admin's own user", async () => {
    const { url } = await app();
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
  });

  it.skipIf(skip)("throttles failed sign-ins per address (429 with Retry-After)", async () => {
    const { url } = await app();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await fetch(`${url}/api/v1/conversations`, { headers: { authorization: `Bearer guess-${i}` } })).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    const last = await fetch(`${url}/api/v1/conversations`, { headers: { authorization: "Bearer guess-last" } });
    expect(last.status).toBe(429);
    expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await last.json()).error.code).toBe("too_many_attempts");
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
