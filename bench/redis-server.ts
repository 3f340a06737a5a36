/**
 * Starts a real, throwaway redis-server on a free loopback port: used by the Redis tests and by the
 * two-process concurrency benchmark. Nothing in the product path uses it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { installed } from "../providers/installed.js";
import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

/** Path of the redis-server binary, or undefined when it is not installed. */
export function redisServerBinary(): string | undefined {
  return installed("redis-server") ? "redis-server" : undefined;
}

/** A free TCP port on loopback (2024 is taken on these machines). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A real redis-server on a free loopback port that a test can kill and start again on the same
 * port (to simulate an outage). Without persistence unless `persistent`: then every write goes to
 * an append-only file first, so a killed server comes back with its data.
 */
export class RedisServer {
  private child?: ChildProcess;
  private constructor(
    private readonly binary: string,
    readonly port: number,
    private readonly dataDir?: string,
  ) {}

  /** Starts one; resolves once it answers PING. */
  static async start(binary: string, options: { persistent?: boolean } = {}): Promise<RedisServer> {
    const server = new RedisServer(binary, await freePort(), options.persistent ? mkdtempSync(join(tmpdir(), "debatt-redis-")) : undefined);
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on its port and waits until it answers. */
  async restart(): Promise<void> {
    const persistence = this.dataDir ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", this.dataDir] : ["--appendonly", "no"];
    this.child = spawn(this.binary, ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", ...persistence], { stdio: "ignore" });
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on("error", () => {});
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch (err) {
        probe.disconnect();
        if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${this.port}: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  /** Freezes the server (SIGSTOP): connections stay open and commands hang, as in a network partition. */
  pause(): void {
    this.child?.kill("SIGSTOP");
  }

  /** Lets a paused server go on (SIGCONT). */
  unpause(): void {
    this.child?.kill("SIGCONT");
  }

  /** Kills the server (SIGKILL: no goodbye to clients) and waits for it to exit. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  }
}
