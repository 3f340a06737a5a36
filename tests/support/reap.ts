import { readdirSync, readFileSync } from "node:fs";
import { afterAll } from "vitest";

/**
 * Every test file's last word (a setup file of both projects): no process it started outlives it.
 * A test that times out, or fails before its own cleanup, can leave a server, a Redis, a
 * PostgreSQL or a browser running; after the file's own hooks, every process still descending
 * from this worker is killed. Linux's /proc says who descends from whom; elsewhere nothing is done.
 */

/** The ids of the processes descending from `root`, children before their own children. */
export function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // `pid (comm) state ppid …`: the command may hold spaces and parentheses, so read after its last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Kills every process descending from this one; returns how many were still there. */
export function reap(): number {
  const left = descendantsOf(process.pid);
  for (const pid of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return left.length;
}

afterAll(() => {
  const left = reap();
  if (left > 0) console.warn(`[tests] killed ${left} process(es) a test file left running`);
});
// A worker that is ended before its hooks ran (vitest stops it after a hung teardown) still takes its children along.
// Once per worker: a worker that keeps its modules between files (the unit tier) runs this file again for each.
const hooked = Symbol.for("debatt.reap.exit");
if (!(globalThis as Record<symbol, unknown>)[hooked]) {
  (globalThis as Record<symbol, unknown>)[hooked] = true;
  process.once("exit", reap);
}
