import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { wavHeader } from "../providers/pcm.js";
import { AudioPlayer, NoPlayerError } from "./player.js";
import { PCM } from "../state/voice.js";
import { depsFromEnv } from "../service/deps.js";
import { createRunService, type RunService } from "../service/run-service.js";
import type { ClientEvent } from "../state/events.js";
import { ConfigError, DebattError } from "../state/errors.js";
import { openCheckpoints } from "../providers/checkpointer.js";
import { openHistory } from "../history/open.js";
import { createDeliberationPrinter } from "./deliberation-printer.js";

const USAGE = `usage: npm run debate -- [--json] [--participants call_grok,call_claude] [--seed N] [--voice out.wav] [--play] "<message>"
       npm run debate -- [--json] --resume THREAD

  "/debatt <topic>"   eight AI models debate the topic live
  "/dvoice <topic>"   the same debate in voice mode
  "/compare <question>"  all models answer in parallel, shown one after another
  "/vote <question>"   3–7 models answer, vote anonymously for the best answer, the winner's answer is given
  "/revise <question>" 3–6 models answer, see each other's answers (anonymised), revise, then vote
                       (--anti-anchoring: restate first, change only on a cited error)
  "/deep <question>"   2–6 debaters argue in rounds until a moderator finds convergence, then a synthesis
  "/council <claim>"   judges with distinct perspectives give PASS/WARN/FAIL verdicts
                       (--debate: a second round in which they review each other's verdicts)
  anything else        a normal chat answer

  --json               one JSON object per line: {"event": "<kebab-case name>", "data": {...}}
  --participants LIST  a subset of participant keys or names (2–8)
  --seed N             seed for the speaking orders (same seed, same orders)
  --voice FILE.wav     with /dvoice: write the debate's audio, in speaking order, as a WAV file
  --play               with /dvoice: play the debate's audio as it streams (aplay, paplay, ffplay
                       or play; or the command in DEBATT_AUDIO_PLAYER)
  --resume THREAD      go on with an interrupted run from its last saved step (the thread id
                       Ctrl-C prints); finished turns are not asked again`;

const ROUND_LABELS: Record<number, string> = { 1: "Introduktion", 2: "Argument", 3: "Fördjupning", 4: "Röstning" };

/** Terminal styling, off when stdout is not a terminal or NO_COLOR is set. */
function styles(enabled: boolean) {
  const wrap = (code: number) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), green: wrap(32), yellow: wrap(33), cyan: wrap(36) };
}

/** Renders events for people: round headers, who speaks, streaming text, the vote table, winner, synthesis. */
export function createPrettyPrinter(write: (s: string) => void, color: boolean) {
  const c = styles(color);
  let inArenaBlock = false;
  // /compare answers stream in parallel: each is printed whole when it ends.
  const compared = new Map<string, string>();
  const deliberation = createDeliberationPrinter(write, c);
  return (e: ClientEvent): void => {
    if (deliberation(e)) return;
    switch (e.event) {
      case "debate-init":
        write(`${c.bold(`Debatt: ${e.data.topic}`)}${e.data.voice_mode ? c.dim(" (röstläge)") : ""}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? " — simulerade deltagare (ingen OPENAI_API_KEY)" : ""}\n`));
        break;
      case "debate-round-start":
        write(`\n${c.yellow(`━━ Runda ${e.data.round}: ${ROUND_LABELS[e.data.round] ?? e.data.type} ━━`)} ${c.dim(e.data.order.join(" → "))}\n`);
        break;
      case "debate-participant-start":
        write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))} ${c.dim(`(${e.data.position})`)}\n`);
        break;
      case "debate-participant-delta":
        write(e.data.delta);
        break;
      case "debate-participant-end":
        write(e.data.status === "ok" ? c.dim(`\n   ${e.data.word_count} ord · ${(e.data.latency_ms / 1000).toFixed(1)} s\n`) : c.red(`\n   ✗ ${e.data.model}: ${e.data.error}\n`));
        break;
      case "debate-vote-result":
        write(`  ${c.bold(e.data.voter)} → ${c.green(e.data.voted_for)}: ${e.data.motivation}\n`);
        break;
      case "debate-results": {
        write(`\n${c.bold("Röster")}\n`);
        const rows = Object.entries(e.data.vote_counts as Record<string, number>).sort(([, a], [, b]) => b - a);
        for (const [name, n] of rows) write(`  ${name.padEnd(12)} ${"█".repeat(n)} ${n}  ${c.dim(`${e.data.word_counts[name] ?? 0} ord`)}\n`);
        const tiebreak = e.data.tiebreaker === "word_count" ? " (oavgjort: flest ord)" : e.data.tiebreaker === "alphabetical" ? " (oavgjort: bokstavsordning)" : "";
        write(`\n${c.green(c.bold(`👑 Vinnare: ${e.data.winner}`))}${tiebreak} ${c.dim(`— ${e.data.total_votes} giltiga röster, ${e.data.self_votes_filtered} självröster bortfiltrerade, ${e.data.invalid_votes} ogiltiga`)}\n\n`);
        break;
      }
      case "text-delta": {
        // The arena-data block is for the arena page; people read the analysis after it.
        let text: string = e.data.delta;
        if (text.startsWith("```debate-arena-data")) inArenaBlock = true;
        if (inArenaBlock) {
          const end = text.indexOf("```\n", 3);
          if (end === -1) return;
          inArenaBlock = false;
          text = text.slice(end + 4).replace(/^\n+/, "");
        }
        write(text);
        break;
      }
      case "debate-synthesis-complete":
        write("\n");
        break;
      case "compare-start":
        write(`${c.bold(`Jämförelse: ${e.data.question}`)}\n${c.dim(e.data.participants.map((p) => p.display).join(", "))}\n`);
        break;
      case "compare-answer-delta":
        compared.set(e.data.model_key, (compared.get(e.data.model_key) ?? "") + e.data.delta);
        break;
      case "compare-answer-end":
        write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))}\n`);
        write(e.data.status === "ok" ? `${compared.get(e.data.model_key) ?? ""}\n${c.dim(`   ${e.data.word_count} ord · ${(e.data.latency_ms / 1000).toFixed(1)} s`)}\n` : c.red(`   ✗ ${e.data.error}\n`));
        break;
      case "compare-complete":
        write(`\n${c.dim(`${e.data.answered} svar, ${e.data.failed} misslyckade`)}\n`);
        break;
      case "debate-voice-error":
        write(c.red(`\n   🔇 ${e.data.model}: ${e.data.error}\n`));
        break;
      case "error":
        write(c.red(`\nfel (${e.data.code}): ${e.data.message}\n`));
        break;
    }
  };
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        participants: { type: "string" },
        seed: { type: "string" },
        voice: { type: "string" },
        play: { type: "boolean" },
        resume: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const message = args.positionals.join(" ").trim();
  const resume = args.values.resume;
  if (args.values.help || (!message && resume === undefined)) {
    process.stderr.write(`${USAGE}\n`);
    return args.values.help ? 0 : 2;
  }
  const seed = args.values.seed === undefined ? undefined : Number(args.values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) {
    process.stderr.write(`--seed must be a whole number, got "${args.values.seed}"\n`);
    return 2;
  }
  const voiceFile = args.values.voice;
  if (voiceFile !== undefined && !/\.wav$/i.test(voiceFile)) {
    process.stderr.write(`--voice takes a .wav file name, got "${voiceFile}"\n`);
    return 2;
  }
  const spoken = /^\s*\/dvoice\b/i.test(message);
  if ((voiceFile !== undefined || args.values.play) && !spoken) {
    process.stderr.write(`${voiceFile !== undefined ? "--voice" : "--play"} needs a /dvoice debate: only /dvoice is spoken\n`);
    return 2;
  }
  let player: AudioPlayer | undefined;
  try {
    player = args.values.play ? AudioPlayer.start() : undefined;
  } catch (err) {
    if (!(err instanceof NoPlayerError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  let service: RunService;
  let checkpoints;
  let history;
  try {
    const deps = depsFromEnv();
    // Every step is saved (the SQLite file in DEBATT_DATA_DIR, or DATABASE_URL), so a run that is
    // interrupted can go on with --resume.
    checkpoints = await openCheckpoints(deps.settings);
    // The run is recorded like the server's (GET /api/v1/conversations lists it).
    history = await openHistory(deps.settings);
    service = createRunService(deps, { checkpointer: checkpoints.saver, history });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const participants = args.values.participants?.split(",").map((s) => s.trim()).filter(Boolean);
  let run;
  try {
    run = resume === undefined ? service.start({ message, participants, configurable: seed === undefined ? {} : { seed } }) : await service.resume(resume);
  } catch (err) {
    if (!(DebattError.isInstance(err) && err.code === "nothing_to_resume")) throw err;
    process.stderr.write(`nothing to resume: ${err.message} in ${checkpoints.where}\n`);
    return 2;
  }
  const { runId, threadId } = run;
  let cancelled = false;
  process.once("SIGINT", () => {
    process.stderr.write(`\ncancelled; go on with: npm run debate -- --resume ${threadId}\n`);
    cancelled = true;
    service.cancel(runId);
  });
  const write = (s: string) => process.stdout.write(s);
  const print = args.values.json
    ? (e: ClientEvent) => write(`${JSON.stringify(e)}\n`)
    : createPrettyPrinter(write, process.stdout.isTTY === true && !process.env.NO_COLOR);
  let failed = false;
  // The audio exactly as it was streamed: the chunks, in order (one speaker at a time).
  const audio: Buffer[] = [];
  for await (const { event, data } of service.events(runId, 0, new AbortController().signal)) {
    const e = { event, data } as ClientEvent;
    // The run's ids are for clients that resume a stream; the terminal prints the run itself.
    if (e.event === "metadata") continue;
    if (e.event === "error") failed = true;
    if (e.event === "debate-voice-chunk") {
      const pcm = Buffer.from(e.data.pcm_b64, "base64");
      audio.push(pcm);
      player?.write(pcm);
    }
    print(e);
  }
  await player?.finish();
  await checkpoints.close();
  await history.close();
  if (voiceFile !== undefined) {
    const pcm = Buffer.concat(audio);
    writeFileSync(voiceFile, Buffer.concat([wavHeader(pcm.length), pcm]));
    process.stderr.write(`wrote ${(pcm.length / PCM.sampleRate / 2).toFixed(1)} s of audio to ${voiceFile}\n`);
  }
  if (cancelled) return 130;
  return failed ? 1 : 0;
}

main().then(
  // Exit only once stdout is flushed: a pipe takes large output (voice chunks) asynchronously.
  (code) => process.stdout.write("", () => process.exit(code)),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
