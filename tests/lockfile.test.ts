import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

/**
 * `npm ci` refuses a lock file that leaves out an optional package of another platform (npm 11
 * checks; npm 10 did not). A lock regenerated where some platforms' packages cannot be fetched
 * loses them, so this test says so before CI's `npm ci` does.
 */
describe("package-lock.json", () => {
  it("has an entry for every optional dependency of every package, for every platform", () => {
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockEntry> };
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        // Resolved the way Node does: nested under the package first, then in each parent node_modules.
        const candidates: string[] = [];
        for (let base = path; base; base = base.includes("/node_modules/") ? base.slice(0, base.lastIndexOf("/node_modules/")) : "") {
          candidates.push(`${base}/node_modules/${name}`);
        }
        candidates.push(`node_modules/${name}`);
        if (!candidates.some((c) => c in lock.packages)) missing.push(`${name} (for ${path || "the project"})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
