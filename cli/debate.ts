import { ROUND_TYPES } from "../state/formats.js";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { wavHeader } from "../providers/pcm.js";
import { AudioPlayer, NoPlayerError } from "./player.js";
import { PCM } from "../state/voice.js";
import { escapeControls } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { createRunService, type RunService } from "../service/run-service.js";
import type { ClientEvent } from "../state/events.js";
import { ConfigError, DebattError } from "../state/errors.js";
import { openCheckpoints } from "../providers/checkpointer.js";
import { openHistory } from "../history/open.js";
import { createDeliberationPrinter } from "./deliberation-printer.js";
import { TerminalText } from "./terminal-text.js";
import { errorWords, LANGS, pickLang, seconds, translate, type Lang, type Translate as T } from "../state/messages/index.js";

/** The round types, in order (round 4 is the vote). */

/** Terminal styling, off when stdout is not a terminal or NO_COLOR is set. */
function styles(enabled: boolean) {
  const wrap = (code: number) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), green: wrap(32), yellow: wrap(33), cyan: wrap(36) };
}

/** Renders events for people: round headers, who speaks, streaming text, the vote table, winner, synthesis. */
export function createPrettyPrinter(write: (s: string) => void, color: boolean, t: T, status: (s: string) => void = () => {}) {
  const c = styles(color);
  let inArenaBlock = false;
  // /compare answers stream in parallel: each is printed whole when it ends.
  const compared = new Map<string, string>();
  const deliberation = createDeliberationPrinter(write, c, t);
  return (e: ClientEvent): void => {
    if (deliberation(e)) return;
    switch (e.event) {
      case "debate-init":
        write(`${c.bold(t("arena.label", { topic: e.data.topic }))}${e.data.voice_mode ? c.dim(t("cli.voiceMode")) : ""}\n`);
        write(c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}\n`));
        break;
      case "debate-round-start":
        const type = ROUND_TYPES[e.data.round - 1];
        write(`\n${c.yellow(`━━ ${t("arena.round", { n: e.data.round, type: type ? t(`round.${type}`) : e.data.type })} ━━`)} ${c.dim(e.data.order.join(" → "))}\n`);
        break;
      case "debate-participant-start": {
        write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))} ${c.dim(`(${e.data.position})`)}\n`);
        const type = ROUND_TYPES[e.data.round - 1];
        status(`${t("arena.round", { n: e.data.round, type: type ? t(`round.${type}`) : "" })} · ${e.data.model} ${t("card.writing")}`);
        break;
      }
      case "debate-participant-delta":
        write(e.data.delta);
        break;
      case "debate-participant-end":
        status("");
        write(e.data.status === "ok" ? c.dim(`\n   ${t("card.stats", { words: e.data.word_count, seconds: seconds(e.data.latency_ms) })}\n`) : c.red(`\n   ✗ ${e.data.model}: ${e.data.error}\n`));
        break;
      case "debate-vote-result":
        write(`  ${c.bold(e.data.voter)} → ${c.green(e.data.voted_for)}: ${e.data.motivation}\n`);
        break;
      case "debate-results": {
        write(`\n${c.bold(t("votes.title"))}\n`);
        const rows = Object.entries(e.data.vote_counts as Record<string, number>).sort(([, a], [, b]) => b - a);
        for (const [name, n] of rows) write(`  ${name.padEnd(12)} ${"█".repeat(n)} ${n}  ${c.dim(t("cli.words", { n: e.data.word_counts[name] ?? 0 }))}\n`);
        const tiebreak = e.data.tiebreaker === "word_count" || e.data.tiebreaker === "alphabetical" ? ` (${t(`tiebreak.${e.data.tiebreaker}`)})` : "";
        const summary = t("cli.voteSummary", { valid: e.data.total_votes, self: e.data.self_votes_filtered ?? 0, invalid: e.data.invalid_votes ?? 0 });
        write(`\n${c.green(c.bold(t("cli.winner", { winner: e.data.winner })))}${tiebreak} ${c.dim(summary)}\n\n`);
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
        write(`${c.bold(t("compare.label", { question: e.data.question }))}\n${c.dim(`${e.data.participants.map((p) => p.display).join(", ")}${e.data.simulated ? t("cli.simulated") : ""}`)}\n`);
        break;
      case "compare-answer-delta":
        compared.set(e.data.model_key, (compared.get(e.data.model_key) ?? "") + e.data.delta);
        break;
      case "compare-answer-end":
        write(`\n${c.cyan(c.bold(`▶ ${e.data.model}`))}\n`);
        write(e.data.status === "ok" ? `${compared.get(e.data.model_key) ?? ""}\n${c.dim(`   ${t("card.stats", { words: e.data.word_count, seconds: seconds(e.data.latency_ms) })}`)}\n` : c.red(`   ✗ ${e.data.error}\n`));
        break;
      case "compare-complete":
        write(`\n${c.dim(t("cli.compareSummary", { answered: e.data.answered, failed: e.data.failed }))}\n`);
        break;
      case "debate-voice-error":
        write(c.red(`\n   🔇 ${e.data.model}: ${e.data.error}\n`));
        break;
      case "error":
        write(c.red(`\n${t("cli.error", { code: e.data.code, message: errorWords(t, e.data.code, e.data.message, e.data.reason) ?? e.data.message })}\n`));
        break;
    }
  };
}

/** The terminal's language from the environment (LC_ALL, LC_MESSAGES, LANG): Swedish or English. */
function envLang(): Lang {
  return pickLang([process.env.LC_ALL, process.env.LC_MESSAGES, process.env.LANG]);
}

/** The language asked for with `--lang` (read before the options are, so that their errors are in it too). */
function langInArgs(argv: readonly string[]): Lang | undefined {
  const i = argv.findIndex((a) => a === "--lang" || a.startsWith("--lang="));
  const value = i < 0 ? undefined : argv[i].includes("=") ? argv[i].split("=")[1] : argv[i + 1];
  return (LANGS as readonly string[]).includes(value ?? "") ? (value as Lang) : undefined;
}

/** An option that could not be read, in the reader's words (Node's own message for anything else). */
function argsError(t: T, err: Error & { code?: string }): string {
  const option = /'(--?[\w-]+)/.exec(err.message)?.[1] ?? "";
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return t("cli.unknownOption", { option });
  if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return t("cli.optionValue", { option });
  return err.message;
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
        lang: { type: "string" },
      },
    });
  } catch (err) {
    const lang = langInArgs(process.argv) ?? envLang();
    process.stderr.write(`${argsError((key, values) => translate(lang, key, values), err as Error)}\n${translate(lang, "cli.usage")}\n`);
    return 2;
  }
  const requested = args.values.lang;
  if (requested !== undefined && !(LANGS as readonly string[]).includes(requested)) {
    process.stderr.write(`${translate(envLang(), "cli.badLang", { value: requested })}\n`);
    return 2;
  }
  const lang: Lang = (requested as Lang | undefined) ?? envLang();
  const t: T = (key, values) => translate(lang, key, values);
  const USAGE = t("cli.usage");
  const message = args.positionals.join(" ").trim();
  const resume = args.values.resume;
  if (args.values.help || (!message && resume === undefined)) {
    process.stderr.write(`${USAGE}\n`);
    return args.values.help ? 0 : 2;
  }
  const seed = args.values.seed === undefined ? undefined : Number(args.values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) {
    process.stderr.write(`${t("cli.badSeed", { value: args.values.seed ?? "" })}\n`);
    return 2;
  }
  const voiceFile = args.values.voice;
  if (voiceFile !== undefined && !/\.wav$/i.test(voiceFile)) {
    process.stderr.write(`${t("cli.badVoiceFile", { value: voiceFile })}\n`);
    return 2;
  }
  const spoken = /^\s*\/dvoice\b/i.test(message);
  if ((voiceFile !== undefined || args.values.play) && !spoken) {
    process.stderr.write(`${t("cli.needsDvoice", { option: voiceFile !== undefined ? "--voice" : "--play" })}\n`);
    return 2;
  }
  let player: AudioPlayer | undefined;
  try {
    player = args.values.play ? AudioPlayer.start() : undefined;
  } catch (err) {
    if (!(err instanceof NoPlayerError)) throw err;
    process.stderr.write(`${t("cli.noPlayer")}\n`);
    return 2;
  }
  const write = (s: string) => process.stdout.write(s);
  const tty = process.stdout.isTTY === true;
  const color = tty && !process.env.NO_COLOR;
  // For people: wrapped to the terminal, markdown rendered, a status line at the bottom.
  const text = new TerminalText(write, { width: tty ? (process.stdout.columns ?? 80) : Infinity, tty, style: styles(color) });
  // Log lines and notices go to stderr above the status line, never onto its row.
  const aside = (line: string) => text.aside(line, (s) => process.stderr.write(s));
  let service: RunService;
  let checkpoints;
  let history;
  try {
    const deps = depsFromEnv(process.env, { log: (line) => aside(`[debatt] ${escapeControls(line)}`) });
    // Every step is saved (the SQLite file in DEBATT_DATA_DIR, or DATABASE_URL), so a run that is
    // interrupted can go on with --resume.
    checkpoints = await openCheckpoints(deps.settings);
    // The run is recorded like the server's (GET /api/v1/conversations lists it).
    history = await openHistory(deps.settings);
    service = createRunService(deps, { checkpointer: checkpoints.saver, history });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${t("cli.configError", { message: err.message })}\n`);
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
    process.stderr.write(`${t("cli.nothingToResume", { message: err.message, where: checkpoints.where })}\n`);
    return 2;
  }
  const { runId, threadId } = run;
  let cancelled = false;
  process.once("SIGINT", () => {
    aside(t("cli.cancelled", { thread: threadId }));
    cancelled = true;
    service.cancel(runId);
  });
  const print = args.values.json
    ? (e: ClientEvent) => write(`${JSON.stringify(e)}\n`)
    : createPrettyPrinter((s) => text.write(s), color, t, (s) => text.status(s));
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
  if (!args.values.json) text.end();
  await player?.finish();
  await checkpoints.close();
  await history.close();
  if (voiceFile !== undefined) {
    const pcm = Buffer.concat(audio);
    writeFileSync(voiceFile, Buffer.concat([wavHeader(pcm.length), pcm]));
    process.stderr.write(`${t("cli.wroteAudio", { seconds: seconds((pcm.length / PCM.sampleRate / 2) * 1000), file: voiceFile })}\n`);
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
