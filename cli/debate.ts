import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { attachedMaterial } from "./attach.js";
import { wavHeader } from "../providers/pcm.js";
import { AudioPlayer, NoPlayerError } from "./player.js";
import { PCM } from "../state/voice.js";
import { escapeControls } from "../service/app-deps.js";
import { depsFromEnv } from "../service/deps.js";
import { createRunService, type RunService } from "../service/run-service.js";
import type { ClientEvent } from "../state/events.js";
import type { State } from "../state/graph-state.js";
import { HumanMessage } from "@langchain/core/messages";
import { ConfigError, DebattError, type Reason } from "../state/errors.js";
import { openCheckpoints, type Checkpoints } from "../providers/checkpointer.js";
import { openAppHistory } from "../service/formats.js";
import { createNarrator } from "../service/narrator.js";
import { TerminalText } from "./terminal-text.js";
import { argsError, envLang, langInArgs } from "./lang.js";
import { errorWords, LANGS, seconds, translate, USAGE_ERROR_CODES, usageHelp, type Lang, type Translate as T } from "../state/messages/index.js";
import { loadLeaderboard } from "../history/ballots.js";
import { leaderboardFilters } from "../state/leaderboard/leaderboard.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { loadSettings } from "../state/config.js";
import { leaderboardText } from "./leaderboard-text.js";
import { EXPORT_FORMATS, exportConversation, type ExportFormat } from "../history/export.js";
import type { HistoryStore } from "../history/store.js";
import { PersonPrompt } from "./person-prompt.js";
import { parseCommand } from "../state/commands.js";
import { personNameSchema } from "../state/person-schemas.js";
import { DEFAULT_PERSON_NAME, withPerson } from "../state/person.js";
import { participantsFor } from "../state/participants.js";
import { TERMINAL_LISTS } from "../service/narration.js";

/** Terminal styling, off when stdout is not a terminal or NO_COLOR is set. */
function styles(enabled: boolean) {
  const wrap = (code: number) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), green: wrap(32), yellow: wrap(33), cyan: wrap(36), ...TERMINAL_LISTS };
}

/**
 * What a message that could not start a run needs, with examples, in the reader's words: a
 * command without its topic says what it needs; an unknown option is named (and the options the
 * command has, if any).
 */
function usageText(t: T, message: string, error: { code: string; message: string; reason?: Reason }): string {
  const help = usageHelp(t, message, error);
  return `${help.needs}\n${t("usage.examples")}\n${help.examples.map((x) => `  ${x}\n`).join("")}`;
}

/**
 * What a thread's unfinished run was asked (the last message a person wrote in it, as typed), from
 * its last checkpoint; undefined when there is none. The state's `message` is emptied once routed.
 */
async function askedIn(saver: Checkpoints["saver"], threadId: string): Promise<string | undefined> {
  const values = (await saver.getTuple({ configurable: { thread_id: threadId } }))?.checkpoint.channel_values as Partial<State> | undefined;
  const asked = [...(values?.messages ?? [])].reverse().find((m) => HumanMessage.isInstance(m))?.content;
  return typeof asked === "string" && asked.trim() ? asked.trim() : undefined;
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
        name: { type: "string" },
        voice: { type: "string" },
        play: { type: "boolean" },
        "show-thinking": { type: "boolean" },
        attach: { type: "string", multiple: true },
        resume: { type: "string" },
        help: { type: "boolean", short: "h" },
        lang: { type: "string" },
        leaderboard: { type: "boolean" },
        export: { type: "string" },
        format: { type: "string" },
        since: { type: "string" },
        user: { type: "string" },
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
  // The history's commands read it and run nothing: they take no message, and one at a time.
  if (args.values.leaderboard || args.values.export !== undefined) {
    const conflict =
      args.values.leaderboard && args.values.export !== undefined
        ? "--leaderboard --export"
        : message
          ? `"${message}"`
          : args.values.export !== undefined && args.values.json
            ? "--json"
            : undefined;
    if (conflict) {
      process.stderr.write(`${t("cli.historyCommand", { option: conflict })}\n`);
      return 2;
    }
    return args.values.leaderboard ? printLeaderboard(t, lang, args.values) : printExport(t, lang, args.values.export!, args.values);
  }
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
  const asked = parseCommand(message);
  const joining = asked.kind === "debate" && asked.options.withMe === true;
  if (args.values.name !== undefined && !joining) {
    process.stderr.write(`${t("cli.needsWithMe")}\n`);
    return 2;
  }
  const named = args.values.name === undefined ? undefined : personNameSchema.safeParse(args.values.name);
  if (named && !named.success) {
    process.stderr.write(`${t("cli.badName")}\n`);
    return 2;
  }
  // Files every participant reads with the question: each one read (or refused, saying why) before any run starts.
  const attach = args.values.attach ?? [];
  if (attach.length > 0 && resume !== undefined) {
    process.stderr.write(`${t("cli.attach.withResume")}\n`);
    return 2;
  }
  const attached = attach.length > 0 ? await attachedMaterial(attach, t) : { material: [] };
  if ("error" in attached) {
    process.stderr.write(`${attached.error}\n`);
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
  // Log lines and notices go to stderr above the status line, never onto its row, wrapped to
  // stderr's terminal (if it is one).
  const errWidth = process.stderr.isTTY ? (process.stderr.columns ?? 80) : Infinity;
  const aside = (line: string) => text.aside(line, (s) => process.stderr.write(s), errWidth);
  let service: RunService;
  let checkpoints;
  let history;
  let roster;
  try {
    const deps = depsFromEnv(process.env, { log: (line) => aside(`[debatt] ${escapeControls(line)}`) });
    // Every step is saved (the SQLite file in DEBATT_DATA_DIR, or DATABASE_URL), so a run that is
    // interrupted can go on with --resume.
    checkpoints = await openCheckpoints(deps.settings);
    // The run is recorded like the server's (GET /api/v1/conversations lists it).
    history = await openAppHistory(deps.settings);
    service = createRunService(deps, { checkpointer: checkpoints.saver, history });
    roster = deps.settings.roster;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${t("cli.configError", { message: err.message })}\n`);
      return 2;
    }
    throw err;
  }
  const participants = args.values.participants
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // A name a participant has is refused before the debate starts (nothing is filed), as the chat stream refuses it.
  if (joining) {
    try {
      withPerson(participantsFor("debatt", roster, participants), named?.data ?? DEFAULT_PERSON_NAME);
    } catch (err) {
      if (!DebattError.isInstance(err)) throw err;
      process.stderr.write(`${errorWords(t, err.code, err.message, err.reason) ?? err.message}\n`);
      await checkpoints.close();
      await history.close();
      return 2;
    }
  }
  let run;
  // What a resumed run was asked, for its header (read before the run goes on and saves more).
  let resumed: string | undefined;
  try {
    if (resume !== undefined) resumed = (await askedIn(checkpoints.saver, resume)) ?? resume;
    const configurable = {
      ...(seed === undefined ? {} : { seed }),
      ...(named ? { person_name: named.data } : {}),
      // Nobody hears a spoken debate the terminal does not play: its text need not wait for the audio (`--paced` still asks it to).
      ...(spoken && !args.values.play ? { voice_pacing: "off" as const } : {}),
    };
    run =
      resume === undefined
        ? await service.start({
            message,
            participants,
            configurable,
            seatsPerson: true,
            ...(attached.material.length > 0 ? { material: attached.material } : {}),
          })
        : await service.resume(resume);
  } catch (err) {
    if (!DebattError.isInstance(err)) throw err;
    if (err.code === "nothing_to_resume") process.stderr.write(`${t("cli.nothingToResume", { message: err.message, where: checkpoints.where })}\n`);
    else process.stderr.write(`${errorWords(t, err.code, err.message, err.reason) ?? err.message}\n`);
    return 2;
  }
  const { runId, threadId } = run;
  let cancelled = false;
  let cancelledAt = 0;
  const cancelledNotice = () => aside(t("cli.cancelled", { thread: threadId }));
  // Ctrl-C cancels the run; the notice waits until its stream has ended, after its last text.
  // tsx (`npm run debate`) sends this process a Ctrl-C once more when it is not told within 30 ms
  // that the first arrived: one that soon is the same press. A later one quits at once.
  process.on("SIGINT", () => {
    if (!cancelled) {
      cancelled = true;
      cancelledAt = Date.now();
      service.cancel(runId);
    } else if (Date.now() - cancelledAt > 1000) {
      if (!args.values.json) text.end();
      cancelledNotice();
      process.exit(130);
    }
  });
  const print = args.values.json
    ? (e: ClientEvent) => write(`${JSON.stringify(e)}\n`)
    : createNarrator(
        (s) => text.write(s),
        styles(color),
        t,
        (s) => text.status(s),
        { showThinking: args.values["show-thinking"] },
      );
  // A resumed run's stream begins where it stopped, without the run's own header.
  if (resumed !== undefined && !args.values.json) text.write(`${styles(color).bold(t("cli.resumed", { message: resumed }))}\n`);
  let failed = false;
  // A message that could not start a run (a command without its topic, an unknown option): told how, exit 2.
  let misused = false;
  // The audio exactly as it was streamed: the chunks, in order (one speaker at a time).
  const audio: Buffer[] = [];
  // A debate the person joined: their turns and vote are read from stdin, a line each.
  const person = new PersonPrompt(service, runId, t, aside);
  for await (const { event, data } of service.events(runId, 0, new AbortController().signal)) {
    const e = { event, data } as ClientEvent;
    person.heard(e);
    // The run's ids are for clients that resume a stream; the terminal prints the run itself.
    if (e.event === "metadata") continue;
    if (e.event === "error") failed = true;
    // A message the CLI could not run as typed: explained with examples, exit 2 (as for bad options).
    if (e.event === "error" && USAGE_ERROR_CODES.has(e.data.code)) misused = true;
    if (e.event === "error" && USAGE_ERROR_CODES.has(e.data.code) && !args.values.json) {
      text.write(usageText(t, message, e.data));
      continue;
    }
    if (e.event === "debate-voice-chunk") {
      const pcm = Buffer.from(e.data.pcm_b64, "base64");
      audio.push(pcm);
      player?.write(pcm);
    }
    print(e);
  }
  person.close();
  if (!args.values.json) text.end();
  // The run winds down (its last log line, its history) before the stores close and the CLI says more.
  await service.shutdown(10_000);
  await player?.finish();
  await checkpoints.close();
  await history.close();
  if (voiceFile !== undefined) {
    const pcm = Buffer.concat(audio);
    writeFileSync(voiceFile, Buffer.concat([wavHeader(pcm.length), pcm]));
    process.stderr.write(`${t("cli.wroteAudio", { seconds: seconds((pcm.length / PCM.sampleRate / 2) * 1000), file: voiceFile })}\n`);
  }
  if (cancelled) {
    cancelledNotice();
    return 130;
  }
  // Where the run is kept, for --export (a message that only got an explanation is not kept).
  if (!misused) aside(t("cli.kept", { thread: threadId }));
  if (misused) return 2;
  return failed ? 1 : 0;
}

/** The history for a command that only reads it, or the exit code of a configuration it cannot open with. */
async function openHistoryFor(t: T): Promise<HistoryStore | number> {
  try {
    return await openAppHistory(loadSettings(process.env));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${t("cli.configError", { message: err.message })}\n`);
    return 2;
  }
}

/** Says why a history command cannot run, in the reader's words (the message when the catalogues lack the code); exit code 2. */
function refuse(t: T, code: string, message = ""): number {
  process.stderr.write(`${errorWords(t, code, message) ?? (message || code)}\n`);
  return 2;
}

/**
 * `--export ID`: the conversation (the local user's, or `--user`'s) as Markdown (`--format md`,
 * the default), JSON or one HTML page, on stdout. Its words are in `--lang`'s language.
 */
async function printExport(t: T, lang: Lang, id: string, options: { format?: string; user?: string }): Promise<number> {
  const format = options.format ?? "md";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return refuse(t, "invalid_export_format");
  const history = await openHistoryFor(t);
  if (typeof history === "number") return history;
  try {
    const c = await history.conversation(id);
    // Rows from before users existed belong to the local user.
    if (!c || (c.userId ?? LOCAL_OWNER) !== (options.user ?? LOCAL_OWNER)) return refuse(t, "conversation_not_found");
    const file = await exportConversation(history, c, format as ExportFormat, t, lang);
    process.stdout.write(file.body);
    return 0;
  } catch (err) {
    if (DebattError.isInstance(err) && err.code === "page_not_built") return refuse(t, "page_not_built");
    throw err;
  } finally {
    await history.close();
  }
}

/**
 * `--leaderboard`: the models' ratings from the votes in the history (the local user's, or
 * `--user`'s), of one format (`--format`) since a date (`--since`); `--json` prints the report as
 * `GET /api/v1/leaderboard` answers it.
 */
async function printLeaderboard(t: T, lang: Lang, options: { json?: boolean; format?: string; since?: string; user?: string }): Promise<number> {
  let filters;
  try {
    filters = leaderboardFilters(options.format, options.since);
  } catch (err) {
    if (!DebattError.isInstance(err)) throw err;
    return refuse(t, err.code, err.message);
  }
  const history = await openHistoryFor(t);
  if (typeof history === "number") return history;
  try {
    const report = await loadLeaderboard(history, [options.user ?? LOCAL_OWNER], filters);
    process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : leaderboardText(t, lang, report));
    return 0;
  } finally {
    await history.close();
  }
}

main().then(
  // Exit only once stdout is flushed: a pipe takes large output (voice chunks) asynchronously.
  (code) => process.stdout.write("", () => process.exit(code)),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
