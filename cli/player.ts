import { spawn, type ChildProcess } from "node:child_process";
import { installed } from "../providers/installed.js";
import { DebattError } from "../state/errors.js";
import { PCM } from "../state/voice.js";

const rate = String(PCM.sampleRate);
/** Players that read raw 24 kHz 16-bit mono PCM on stdin, in order of preference. */
const PLAYERS: { bin: string; args: string[] }[] = [
  { bin: "aplay", args: ["-q", "-t", "raw", "-f", "S16_LE", "-r", rate, "-c", "1", "-"] },
  { bin: "paplay", args: ["--raw", "--format=s16le", `--rate=${rate}`, "--channels=1"] },
  { bin: "ffplay", args: ["-loglevel", "error", "-autoexit", "-nodisp", "-f", "s16le", "-ar", rate, "-ac", "1", "-i", "-"] },
  { bin: "play", args: ["-q", "-t", "raw", "-r", rate, "-e", "signed", "-b", "16", "-c", "1", "-"] },
];

/** Why no player could be started, naming what to install or set. */
export class NoPlayerError extends DebattError {
  constructor(message: string) {
    super("no_player", message);
  }
}

/**
 * Plays a /dvoice debate's audio as it streams, through the command in DEBATT_AUDIO_PLAYER (a
 * shell command reading raw PCM on stdin) or the first installed of aplay, paplay, ffplay, play.
 */
export class AudioPlayer {
  private constructor(private readonly child: ChildProcess) {
    child.stdin!.on("error", () => {}); // a player that quits early must not crash the debate
  }

  static start(env: Record<string, string | undefined> = process.env): AudioPlayer {
    const custom = env.DEBATT_AUDIO_PLAYER;
    if (custom) return new AudioPlayer(spawn("sh", ["-c", custom], { stdio: ["pipe", "ignore", "inherit"] }));
    const found = PLAYERS.find((p) => installed(p.bin));
    if (!found) {
      throw new NoPlayerError(
        "--play needs an audio player: install alsa-utils (aplay), pulseaudio-utils (paplay), ffmpeg (ffplay) or sox (play), or set DEBATT_AUDIO_PLAYER",
      );
    }
    return new AudioPlayer(spawn(found.bin, found.args, { stdio: ["pipe", "ignore", "inherit"] }));
  }

  /** Queues PCM for playback. */
  write(pcm: Buffer): void {
    this.child.stdin!.write(pcm);
  }

  /** Ends the input and waits until the player has played it all. */
  async finish(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.child.once("close", () => resolve());
      this.child.stdin!.end();
    });
  }
}
