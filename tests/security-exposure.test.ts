import { networkInterfaces } from "node:os";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startApp } from "./support/http.js";
import { serverProcesses, startServerProcess } from "./support/server-process.js";
import { testDeps } from "./support/harness.js";

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

describe("who can reach the server", () => {
  const start = serverProcesses();

  it("listens on loopback by default and logs the address it really bound", async () => {
    const server = await start({});
    expect(server.log()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ /);
    const port = Number(new URL(server.url).port);
    expect(await accepts("127.0.0.1", port)).toBe(true);
    const external = externalAddress();
    if (external) expect(await accepts(external, port)).toBe(false);
  });

  it("refuses an empty HOST at start-up, naming the variable", async () => {
    await expect(startServerProcess({ HOST: " " })).rejects.toThrow(/HOST must not be empty/);
  });
});

describe("security headers", () => {
  it("sends a strict Content-Security-Policy, nosniff, no framing and no referrer on every response", async () => {
    const app = await startApp(testDeps().deps);
    try {
      for (const [path, status] of [["/healthz", 200], ["/api/v1/nope", 404], ["/api/v1/admin/prompts", 503]] as const) {
        const res = await fetch(`${app.url}${path}`);
        expect(res.status, path).toBe(status);
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp, path).toContain("script-src 'self'");
        expect(csp, path).toContain("frame-ancestors 'none'");
        expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval/);
        expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
        expect(res.headers.get("x-frame-options"), path).toBe("DENY");
        expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
        expect(res.headers.get("x-powered-by"), path).toBeNull();
      }
    } finally {
      await app.close();
    }
  });
});
