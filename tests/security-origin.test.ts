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
    const signIn = await fetch(`${url}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: ada.token }),
    });
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0];
    // A debate of Ada's to cancel, share and resume.
    const started = await fetch(`${url}/api/v1/chat/stream`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ message: "/compare Vad är 2+2?" }),
    });
    const runId = String((await readSse(started)).events[0].data.run_id);

    const own = new URL(url).origin;
    const forms = [`/api/v1/debates/${runId}/cancel`, `/api/v1/conversations/${runId}/share`, `/api/v1/debates/${runId}/resume`];
    for (const path of forms) {
      // A form on another site, a page of a sibling site, an older browser that sends only its Origin.
      for (const headers of <Record<string, string>[]>[
        { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        { origin: "https://sub.example", "sec-fetch-site": "same-site" },
        { "sec-fetch-site": "cross-site" },
        { origin: "https://evil.example" },
        { origin: "null" },
      ]) {
        const res = await fetch(`${url}${path}`, { method: "POST", headers: { cookie, ...headers } });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect((await res.json()).error.code).toBe("forbidden_origin");
      }
    }
    // The server's own page is not refused: by its Sec-Fetch-Site even behind a proxy that rewrote
    // the Host header (its Origin then names a host the server does not see), or by its Origin alone.
    const asOwnPage = async (headers: Record<string, string>) =>
      (await fetch(`${url}/api/v1/conversations/${runId}/share`, { method: "POST", headers: { cookie, ...headers } })).status;
    expect(await asOwnPage({ origin: "https://debatt.example.org", "sec-fetch-site": "same-origin" })).toBe(201);
    expect(await asOwnPage({ origin: own })).toBe(201);
    // A client that names its user with a token is not refused for its origin.
    expect(
      (
        await fetch(`${url}/api/v1/debates/${runId}/cancel`, {
          method: "POST",
          headers: { authorization: `Bearer ${ada.token}`, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        })
      ).status,
    ).toBe(409);
    // Reading is not changing: a GET from elsewhere is answered (the browser keeps the answer from the page).
    expect((await fetch(`${url}/api/v1/conversations`, { headers: { cookie, origin: "https://evil.example" } })).status).toBe(200);
  });

  it("are refused on a loopback server without users, which has no cookie to guard", async () => {
    const { url } = await serve({ auth: "none" });
    const res = await fetch(`${url}/api/v1/chat/stream`, {
      method: "POST",
      headers: { origin: "http://evil.example", "content-type": "text/plain" },
      body: JSON.stringify({ message: "/compare x" }),
    });
    expect(res.status).toBe(403);
    const fine = await fetch(`${url}/api/v1/chat/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "/compare Vad är 2+2?" }),
    });
    expect(fine.status).toBe(200);
    await fine.body?.cancel();
  });
});
