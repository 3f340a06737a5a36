import { spawnSync } from "node:child_process";

/** Whether a program is on the PATH (espeak-ng, lame, ffmpeg, an audio player, redis-server). */
export function installed(bin: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${bin}`]).status === 0;
}
