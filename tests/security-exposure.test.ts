import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { request } from "node:http";
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

  it("stops start-up with exit 2 naming DEBATT_DATA_DIR when it is a file or cannot be written", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "debatt-file-")), "not-a-dir");
    writeFileSync(file, "");
    // Root writes through file permissions, so a read-only place for root is a read-only file system.
    const readOnly = process.getuid?.() === 0 ? "/sys/kernel/debatt-data" : join(mkdtempSync(join(tmpdir(), "debatt-ro-")), "data");
    if (process.getuid?.() !== 0) chmodSync(join(readOnly, ".."), 0o555);
    for (const [dir, why] of [
      [file, "a path on the way is a file"],
      [join(file, "sub"), "a path on the way is a file"],
      [readOnly, "this process may not write there"],
    ]) {
      const failed = await start({ DEBATT_DATA_DIR: dir }).then(
        () => null,
        (err: Error & { exitCode: number }) => err,
      );
      expect(failed?.exitCode, dir).toBe(2);
      expect(failed?.message, dir).toContain(`DEBATT_DATA_DIR=${dir} is not a writable directory: ${why}`);
    }
  });
});

describe("security headers", () => {
  it("sends a strict Content-Security-Policy, nosniff, no framing and no referrer on every response", async () => {
    const app = await startApp(testDeps().deps);
    try {
      for (const [path, status] of [
        ["/healthz", 200],
        ["/api/v1/nope", 404],
        ["/api/v1/admin/prompts", 503],
      ] as const) {
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

describe("DNS rebinding", () => {
  /** A GET with a Host header of our choosing (fetch sets its own). */
  const getWithHost = (url: string, host: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(url);
      const req = request({ host: u.hostname, port: u.port, path, headers: { host } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers a server without users only when it is addressed by a loopback name or one of ALLOWED_HOSTS", async () => {
    const { deps } = testDeps({ settings: { auth: "none", allowedHosts: ["debatt.local"] } });
    const app = await startApp(deps);
    try {
      const port = new URL(app.url).port;
      // A page on evil.example, its name pointed at 127.0.0.1, would send its own name as Host.
      const rebound = await getWithHost(app.url, `evil.example:${port}`, "/api/v1/conversations");
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body).error.code).toBe("forbidden_host");
      expect((await getWithHost(app.url, `evil.example:${port}`, "/mcp")).status).toBe(403);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `debatt.local:${port}`]) {
        expect((await getWithHost(app.url, host, "/healthz")).status, host).toBe(200);
      }
    } finally {
      await app.close();
    }
  });

  it("leaves the Host alone with tokens: a rebinding page has no token", async () => {
    const { deps } = testDeps({ settings: { auth: "tokens", adminToken: "admin-token-0123456789" } });
    const app = await startApp(deps);
    try {
      expect((await getWithHost(app.url, "debatt.example.com", "/healthz")).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
