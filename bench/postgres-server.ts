import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server.js";

/** The directory of Debian's PostgreSQL binaries (initdb, postgres), or undefined when not installed. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], "bin") : undefined;
}

/** Runs a PostgreSQL program as the `postgres` user when we are root (initdb and postgres refuse root). */
function asPostgres(binary: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
}

/** Starts `postgres` on `port` with the cluster in `dir`, and resolves once it answers. */
async function serve(binDir: string, dir: string, port: number): Promise<ChildProcess> {
  const [cmd, args] = asPostgres(join(binDir, "postgres"), [
    "-D",
    join(dir, "data"),
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
  ]);
  const child = spawn(cmd, args, { stdio: "ignore" });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = spawnSync(join(binDir, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres"], { encoding: "utf8" });
    if (ready.status === 0) return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`postgres did not start on port ${port}: ${ready.stdout}${ready.stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A real, throwaway PostgreSQL server on a free loopback port, in a temporary data directory. */
export class PostgresServer {
  private constructor(
    private child: ChildProcess,
    private readonly binDir: string,
    private readonly dir: string,
    private readonly port: number,
    readonly url: string,
  ) {}

  /** Initialises a cluster (trust authentication, loopback only), starts it and waits until it answers. */
  static async start(binDir: string): Promise<PostgresServer> {
    const dir = mkdtempSync(join(tmpdir(), "debatt-pg-"));
    chmodSync(dir, 0o777);
    const data = join(dir, "data");
    const [initCmd, initArgs] = asPostgres(join(binDir, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
    const init = spawnSync(initCmd, initArgs, { encoding: "utf8" });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
    const port = await freePort();
    const child = await serve(binDir, dir, port);
    return new PostgresServer(child, binDir, dir, port, `postgres://postgres@127.0.0.1:${port}/postgres`);
  }

  /**
   * Stops the server as an operator's restart does (`pg_ctl stop`: `fast` ends every session,
   * `immediate` is a crash), keeping its data; `start` brings it back on the same port.
   */
  async halt(mode: "fast" | "immediate" = "fast"): Promise<void> {
    const [cmd, args] = asPostgres(join(this.binDir, "pg_ctl"), ["-D", join(this.dir, "data"), "stop", "-m", mode, "-w"]);
    spawnSync(cmd, args, { stdio: "ignore" });
    if (this.child.exitCode === null) await new Promise((r) => this.child.once("exit", r));
  }

  /** Starts a halted server again, on its port and with its data; resolves once it answers. */
  async start(): Promise<void> {
    this.child = await serve(this.binDir, this.dir, this.port);
  }

  /** Stops the server (pg_ctl's immediate mode: runuser does not pass signals on) and removes its data. */
  async stop(): Promise<void> {
    const [cmd, args] = asPostgres(join(this.binDir, "pg_ctl"), ["-D", join(this.dir, "data"), "stop", "-m", "immediate", "-w"]);
    spawnSync(cmd, args, { stdio: "ignore" });
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
