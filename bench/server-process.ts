import { fork, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer, stopGroup } from "../scripts/spawn-server.js";

/** Builds what `npm start` serves (`npm run build`); throws when the build fails. */
export function build(): void {
  if (spawnSync("npm", ["run", "-s", "build"], { stdio: "inherit" }).status !== 0) throw new Error("npm run build failed");
}

/** The package's start script as a command line: the server exactly as `npm start` runs it (after its build). */
export function startCommand(): string[] {
  return (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start.split(/\s+/);
}

/**
 * Starts a server with `command` on a free port, a fresh data directory and the per-client run
 * limits lifted (one benchmark client asks everything), and waits for its listening line. `stop`
 * signals the command and every process it started.
 */
export async function startServer(
  command: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stop: (signal?: NodeJS.Signals) => void }> {
  const server = await spawnServer(command, { RUNS_PER_MINUTE: "100000", MAX_CONCURRENT_RUNS: "100000", MAX_OPEN_STREAMS: "100000", ...env }, { group: true });
  return { child: server.child, url: server.url, stop: (signal) => stopGroup(server, signal) };
}

/** The Node options of the start script (`--max-old-space-size=2000` …), for a server started another way. */
export function startFlags(): string[] {
  return startCommand().filter((arg) => arg.startsWith("--"));
}

/** CPU time a process has used, in ms (utime + stime of /proc/<pid>/stat, in 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** What a server child (bench/server-child.ts) measured of itself between `begin` and `report`. */
export interface ServerReport {
  cpuMs: number;
  loopP99Ms: number;
  baseRss: number;
  peakRss: number;
  /** Resident memory when the report was asked for (after a full collection when the server runs with --expose-gc). */
  rss: number;
  /** The JavaScript heap in use then, and at `begin` (each after a full collection with --expose-gc). */
  heapUsed: number;
  /** The heap V8 had reserved then (used or not), and the memory outside it that JavaScript objects hold (buffers). */
  heapTotal: number;
  external: number;
  baseHeap: number;
}

/**
 * A server child process (bench/server-child.ts): the product's app in a process of its own that
 * measures itself (event-loop delay, CPU, RSS) and reports over IPC. The per-client run limits
 * are lifted: one benchmark client starts every run.
 */
export class ServerProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(env: Record<string, string>, execArgv: string[] = []): Promise<ServerProcess> {
    const child = fork(new URL("./server-child.ts", import.meta.url).pathname, [], {
      execArgv: [...execArgv, "--import", "tsx"],
      env: {
        PATH: process.env.PATH,
        DEBATT_DATA_DIR: mkdtempSync(join(tmpdir(), "debatt-bench-")),
        RUNS_PER_MINUTE: "100000",
        MAX_CONCURRENT_RUNS: "100000",
        MAX_OPEN_STREAMS: "100000",
        // The measured window's CPU profile goes there (bench/server-child.ts).
        ...(process.env.BENCH_CPU_PROF ? { BENCH_CPU_PROF: process.env.BENCH_CPU_PROF } : {}),
        ...env,
      },
    });
    const [msg] = (await once(child, "message")) as [{ port: number }];
    return new ServerProcess(child, `http://127.0.0.1:${msg.port}`);
  }

  /** Sends `type` and waits for `reply`; throws if the server dies first (out of memory, say). */
  private async ask<T>(type: string, reply: string): Promise<T> {
    const died = once(this.child, "exit").then(([code, signal]) => {
      throw new Error(`the server exited (${signal ?? code}) before it answered ${type}`);
    });
    this.child.send({ type });
    for (;;) {
      const [msg] = (await Promise.race([once(this.child, "message"), died])) as [{ type: string } & T];
      if (msg.type === reply) return msg;
    }
  }
  begin = () => this.ask<object>("start", "started");
  report = () => this.ask<ServerReport>("stop", "report");
  async stop(): Promise<void> {
    this.child.send({ type: "exit" });
    await once(this.child, "exit");
  }
}
