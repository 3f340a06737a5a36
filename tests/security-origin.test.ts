import { afterEach, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import type { Settings } from "../state/config.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";
import { readSse, startApp } from "./support/http.js";

const ADMIN = "admin-token-0123456789";

describe("requests that change something, sent by a page of another origin", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  async function serve(settings: Partial<Settings>) {
    const db = await sqliteHistory();
    cleanups.push(() => db.close());
    const { deps } = testDeps({ settings });
    const app = await startApp(deps, { history: db.history, checkpointer: new MemorySaver() });
    cleanups.push(app.close);
    return { ...app, db };
  }

  it("are refused with 403 when they rely on the session cookie, and pass with the server's own origin or a Bearer token", async () => {
    const { url, db } = await serve({ auth: "tokens", adminToken: ADMIN });
    const ada = await db.history.users.add("Ada");
    const signIn = await fetch(`${url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: ada.token }) });
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0];
    // A debate of Ada's to cancel, share and resume.
    const started = await fetch(`${url}/api/v1/chat/stream`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ message: "/compare Vad är 2+2?" }) });
    const runId = String((await readSse(started)).events[0].data.run_id);

    const own = new URL(url).origin;
    const forms = [`/api/v1/debates/${runId}/cancel`, `/api/v1/conversations/${runId}/share`, `/api/v1/debates/${runId}/resume`];
    for (const path of forms) {
      // A form on another site (its Origin), and a page of a sibling site that sends only Sec-Fetch-Site.
      for (const headers of <Record<string, string>[]>[{ origin: "https://evil.example" }, { origin: "null" }, { "sec-fetch-site": "same-site" }, { "sec-fetch-site": "cross-site" }]) {
        const res = await fetch(`${url}${path}`, { method: "POST", headers: { cookie, ...headers } });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect((await res.json()).error.code).toBe("forbidden_origin");
      }
      // The server's own page, and a client that names its user with a token, are not refused for their origin.
      for (const headers of <Record<string, string>[]>[{ cookie, origin: own, "sec-fetch-site": "same-origin" }, { authorization: `Bearer ${ada.token}`, origin: "https://evil.example" }]) {
        expect((await fetch(`${url}${path}`, { method: "POST", headers })).status, `${path} ${JSON.stringify(headers)}`).not.toBe(403);
      }
    }
    // Reading is not changing: a GET from elsewhere is answered (the browser keeps the answer from the page).
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie, origin: "https://evil.example" } })).status).toBe(200);
  });

  it("are refused on a loopback server without users, which has no cookie to guard", async () => {
    const { url } = await serve({ auth: "none" });
    const res = await fetch(`${url}/api/v1/chat/stream`, { method: "POST", headers: { origin: "http://evil.example", "content-type": "text/plain" }, body: JSON.stringify({ message: "/compare x" }) });
    expect(res.status).toBe(403);
    const fine = await fetch(`${url}/api/v1/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "/compare Vad är 2+2?" }) });
    expect(fine.status).toBe(200);
    await fine.body?.cancel();
  });
});
