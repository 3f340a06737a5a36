import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../state/errors.js";
import { loadSettings, type Settings } from "../state/config.js";
import { CORS_MAX_AGE_S } from "../routes/cors.js";
import { testDeps } from "./support/harness.js";
import { startApp } from "./support/http.js";

const ADMIN = "admin-token-0123456789";
/** The page of the browser client that is allowed (Open WebUI's, say), and one that is not. */
const WEBUI = "https://chat.example.org";
const EVIL = "https://evil.example";
/** What the OpenAI SDK for JavaScript asks to send, as a browser's preflight names it. */
const SDK_HEADERS =
  "authorization,content-type,x-stainless-arch,x-stainless-lang,x-stainless-os,x-stainless-package-version,x-stainless-retry-count,x-stainless-runtime,x-stainless-runtime-version,x-stainless-timeout,openai-organization,openai-project";

/** The message loadSettings refuses `env` with. */
function refusal(env: Record<string, string>): string {
  try {
    loadSettings(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadSettings accepted ${JSON.stringify(env)}`);
}

describe("CORS_ALLOWED_ORIGINS", () => {
  it("is none by default, and takes exact origins in a comma list", () => {
    expect(loadSettings({}).corsAllowedOrigins).toEqual([]);
    expect(loadSettings({ CORS_ALLOWED_ORIGINS: ` ${WEBUI}, http://localhost:8080 ,` }).corsAllowedOrigins).toEqual([WEBUI, "http://localhost:8080"]);
  });

  it("stops start-up naming each entry that is not an origin as a browser sends it, and the origin meant", () => {
    expect(refusal({ CORS_ALLOWED_ORIGINS: `${WEBUI}/` })).toContain(
      `CORS_ALLOWED_ORIGINS: "${WEBUI}/" is not an origin as a browser sends it: write ${WEBUI}`,
    );
    expect(refusal({ CORS_ALLOWED_ORIGINS: "https://Chat.Example.org" })).toContain(`write ${WEBUI}`);
    expect(refusal({ CORS_ALLOWED_ORIGINS: "https://chat.example.org:443" })).toContain(`write ${WEBUI}`);
    expect(refusal({ CORS_ALLOWED_ORIGINS: `http://localhost:8080, ${WEBUI}/chat` })).toContain(`"${WEBUI}/chat" is not an origin`);
    expect(refusal({ CORS_ALLOWED_ORIGINS: "chat.example.org" })).toContain('"chat.example.org" is not an origin: write the scheme, host and port');
    expect(refusal({ CORS_ALLOWED_ORIGINS: "null" })).toContain('"null" is not an origin');
    expect(refusal({ CORS_ALLOWED_ORIGINS: "https://*.example.org" })).toContain('"https://*.example.org" is not an origin: a wildcard is not supported');
    expect(refusal({ CORS_ALLOWED_ORIGINS: "ftp://files.example.org" })).toContain("is not an http(s) origin");
    expect(refusal({ CORS_ALLOWED_ORIGINS: `*, ${WEBUI}` })).toContain("* allows every origin and stands alone");
  });

  it("takes * only with AUTH=tokens: without users any page the machine's browser opens would be the one user", () => {
    expect(refusal({ CORS_ALLOWED_ORIGINS: "*" })).toContain("CORS_ALLOWED_ORIGINS=* is refused with AUTH=none");
    expect(loadSettings({ CORS_ALLOWED_ORIGINS: "*", AUTH: "tokens" }).corsAllowedOrigins).toBe("*");
    expect(loadSettings({ CORS_ALLOWED_ORIGINS: " *, ", HOST: "0.0.0.0" }).corsAllowedOrigins).toBe("*");
  });
});

describe("browser clients of other origins at /v1 and /mcp", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  async function serve(settings: Partial<Settings>) {
    const { deps } = testDeps({ settings: { auth: "tokens", adminToken: ADMIN, ...settings } });
    const app = await startApp(deps);
    cleanups.push(app.close);
    return app;
  }
  /** A browser's preflight of `method` to `path` for a page of `origin`. */
  const preflight = (url: string, path: string, origin: string, method = "POST", headers = SDK_HEADERS) =>
    fetch(`${url}${path}`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": method,
        "access-control-request-headers": headers,
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "cors",
      },
    });
  const corsHeaders = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith("access-control-"));

  it("answer an allowed origin's preflight with 204 and what it may send, and any other's with 403 and no CORS header", async () => {
    const { url } = await serve({ corsAllowedOrigins: [WEBUI] });

    const ok = await preflight(url, "/v1/chat/completions", WEBUI);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(WEBUI);
    expect(ok.headers.get("vary")).toMatch(/\bOrigin\b/);
    expect(ok.headers.get("access-control-allow-methods")).toBe("GET, POST");
    expect(ok.headers.get("access-control-allow-headers")!.split(", ")).toEqual(SDK_HEADERS.split(","));
    expect(ok.headers.get("access-control-max-age")).toBe(String(CORS_MAX_AGE_S));
    expect(ok.headers.get("access-control-allow-credentials")).toBeNull();
    expect(ok.headers.get("access-control-allow-private-network")).toBeNull();
    expect(await ok.text()).toBe("");
    // A public site's page calling a server on the machine (Chrome's Private Network Access) is told it may.
    const local = await fetch(`${url}/v1/models`, {
      method: "OPTIONS",
      headers: { origin: WEBUI, "access-control-request-method": "GET", "access-control-request-private-network": "true" },
    });
    expect(local.status).toBe(204);
    expect(local.headers.get("access-control-allow-private-network")).toBe("true");
    // /v1/models too, and /mcp with its DELETE (ending a session).
    expect((await preflight(url, "/v1/models", WEBUI, "GET", "authorization")).headers.get("access-control-allow-headers")).toBe("authorization");
    const mcp = await preflight(url, "/mcp", WEBUI, "POST", "authorization,content-type,mcp-session-id,mcp-protocol-version");
    expect(mcp.status).toBe(204);
    expect(mcp.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE");

    for (const path of ["/v1/chat/completions", "/mcp"]) {
      const refused = await preflight(url, path, EVIL);
      expect(refused.status, path).toBe(403);
      expect(corsHeaders(refused), path).toEqual([]);
      expect((await refused.json()).error).toEqual({
        code: "forbidden_origin",
        message: `a page of "${EVIL}" may not call ${path === "/mcp" ? "/mcp" : "/v1"} from a browser: it is not one of CORS_ALLOWED_ORIGINS`,
      });
    }
    // Origins are compared exactly: another scheme, port or subdomain is another origin.
    for (const origin of ["http://chat.example.org", "https://chat.example.org:8443", "https://x.chat.example.org", "null"])
      expect((await preflight(url, "/v1/models", origin)).status, origin).toBe(403);
  });

  it("refuse every preflight when no origin is configured (the default), saying which setting allows one", async () => {
    const { url } = await serve({});
    const refused = await preflight(url, "/v1/chat/completions", WEBUI);
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused)).toEqual([]);
    expect((await refused.json()).error.message).toBe(
      `a page of "${WEBUI}" may not call /v1 from a browser: CORS_ALLOWED_ORIGINS is not set, so no page of another origin may`,
    );
  });

  it("let an allowed page read the answers: a streamed completion with its run's headers, the model list, errors", async () => {
    const { url } = await serve({ corsAllowedOrigins: [WEBUI, "http://localhost:8080"] });
    const fromPage = (origin: string, extra: Record<string, string> = {}) => ({
      origin,
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "cors",
      authorization: `Bearer ${ADMIN}`,
      "x-stainless-lang": "js",
      ...extra,
    });
    const readable = (res: Response) => ({
      origin: res.headers.get("access-control-allow-origin"),
      exposed: res.headers.get("access-control-expose-headers")?.split(", ") ?? [],
    });

    const stream = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: fromPage(WEBUI, { "content-type": "application/json" }),
      body: JSON.stringify({ model: "debatt-compare", stream: true, messages: [{ role: "user", content: "Vad är 2+2?" }] }),
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(readable(stream).origin).toBe(WEBUI);
    expect(readable(stream).exposed).toEqual(expect.arrayContaining(["X-Debatt-Run-Id", "X-Debatt-Conversation-Id", "Retry-After"]));
    expect(stream.headers.get("x-debatt-run-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream.headers.get("access-control-allow-credentials")).toBeNull();
    expect(await stream.text()).toMatch(/data: \[DONE\]\s*$/);

    const models = await fetch(`${url}/v1/models`, { headers: fromPage("http://localhost:8080") });
    expect(readable(models).origin).toBe("http://localhost:8080");
    expect(models.headers.get("vary")).toMatch(/\bOrigin\b/);

    // A refusal is readable too: the page can say why.
    const badToken = await fetch(`${url}/v1/models`, { headers: fromPage(WEBUI, { authorization: "Bearer not-a-token" }) });
    expect(badToken.status).toBe(401);
    expect(readable(badToken)).toEqual({ origin: WEBUI, exposed: expect.arrayContaining(["WWW-Authenticate"]) });
    const tooLarge = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: fromPage(WEBUI, { "content-type": "application/json" }),
      body: "x".repeat(1_100_000),
    });
    expect(tooLarge.status).toBe(413);
    expect(readable(tooLarge).origin).toBe(WEBUI);

    // Another origin's request goes on as before (a browser keeps the answer from its page), without CORS headers.
    const other = await fetch(`${url}/v1/models`, { headers: fromPage(EVIL) });
    expect(other.status).toBe(200);
    expect(corsHeaders(other)).toEqual([]);
    // A client that is not a browser sends no Origin and gets none either.
    expect(corsHeaders(await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${ADMIN}` } }))).toEqual([]);
  });

  it("never let an allowed page act with the person's cookie: a write without a token is still refused as foreign", async () => {
    const { url } = await serve({ auth: "none", corsAllowedOrigins: [WEBUI] });
    const body = JSON.stringify({ model: "debatt-compare", messages: [{ role: "user", content: "x" }] });
    // A form post (no preflight) from the allowed page, relying on what the browser holds.
    const form = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { origin: WEBUI, "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      body,
    });
    expect(form.status).toBe(403);
    expect((await form.json()).error.code).toBe("forbidden_origin");
    const mcp = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { origin: WEBUI, "sec-fetch-site": "cross-site", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(mcp.status).toBe(403);
  });

  it("let an allowed page open an MCP session with its token and read the session id; other pages are refused as before", async () => {
    const { url } = await serve({ corsAllowedOrigins: [WEBUI] });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "web-client", version: "1.0.0" } },
    };
    const post = (origin: string) =>
      fetch(`${url}/mcp`, {
        method: "POST",
        headers: {
          origin,
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "cors",
          authorization: `Bearer ${ADMIN}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(initialize),
      });
    const opened = await post(WEBUI);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("access-control-allow-origin")).toBe(WEBUI);
    expect(opened.headers.get("access-control-expose-headers")!.split(", ")).toContain("Mcp-Session-Id");
    expect(opened.headers.get("mcp-session-id")).toBeTruthy();
    await opened.body?.cancel();
    const foreign = await post(EVIL);
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { data: { code: string } } }).error.data.code).toBe("forbidden_origin");
  });

  it("leave the page's own API (/api/v1, with its session cookie) same-origin: no CORS header for any origin", async () => {
    const { url } = await serve({ corsAllowedOrigins: [WEBUI] });
    const res = await fetch(`${url}/api/v1/health/models`, { headers: { origin: WEBUI, "sec-fetch-site": "cross-site", authorization: `Bearer ${ADMIN}` } });
    expect(corsHeaders(res)).toEqual([]);
    const pre = await preflight(url, "/api/v1/chat/stream", WEBUI);
    expect(corsHeaders(pre)).toEqual([]);
    expect(pre.status).not.toBe(204);
  });

  it("with *, answer every origin with * (never with credentials)", async () => {
    const { url } = await serve({ corsAllowedOrigins: "*" });
    const ok = await preflight(url, "/v1/chat/completions", EVIL);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    const models = await fetch(`${url}/v1/models`, { headers: { origin: EVIL, authorization: `Bearer ${ADMIN}` } });
    expect(models.headers.get("access-control-allow-origin")).toBe("*");
    expect(models.headers.get("access-control-allow-credentials")).toBeNull();
  });
});
