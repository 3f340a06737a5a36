import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../state/errors.js";

/**
 * Makes sure DEBATT_DATA_DIR is a directory this process can write to (creating it if needed), by
 * writing and removing a probe file: a path that is a file, a read-only directory or a full disk
 * stops start-up with a message naming the variable, instead of failing later mid-run.
 */
export function ensureDataDir(dir: string): void {
  const probe = join(dir, `.debatt-write-check-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    const why =
      code === "ENOTDIR" || code === "EEXIST"
        ? "a path on the way is a file, not a directory"
        : code === "EACCES" || code === "EPERM" || code === "EROFS"
          ? "this process may not write there"
          : code === "ENOSPC"
            ? "the disk is full"
            : message;
    throw new ConfigError(`DEBATT_DATA_DIR=${dir} is not a writable directory: ${why} (${code ?? "error"})`);
  }
}
