import { createHash } from "node:crypto";
import { cutShort, notesFields, withSources, type AnswerNotes } from "../state/answer.js";
import { markdownPlain as plain, markdownWithoutHtml, withoutArenaData } from "../state/text.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DebattError } from "../state/errors.js";
import { FORMATS, formatOfStoredMode } from "../state/formats.js";
import { PERSON_MODEL, SKIPPED, type SkipReason } from "../state/person.js";
import { labelName, named, usageWords, type Translate } from "../state/messages/index.js";
import { analysisMarkdown, voteReplyMarkdown } from "./export-readable.js";
import { conversationView } from "./load.js";
import { stageData, type ConversationRow, type HistoryStore, type StageRow } from "./store.js";

/** Why a person's seat can have been skipped, as its stored error says. */
const SKIP_REASONS = Object.keys(SKIPPED) as SkipReason[];

/** The formats a conversation exports to. */
export const EXPORT_FORMATS = ["md", "json", "html"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What an export holds: the conversation as `GET /api/v1/conversations/:id` shows it, and each run's stored stages. */
export interface ConversationExport {
  format: "debatt-conversation";
  version: 1;
  exported_at: string;
  conversation: Awaited<ReturnType<typeof conversationView>>;
}

/** The conversation as an export holds it (the JSON export, and the data the HTML export draws). */
async function conversationExport(store: HistoryStore, c: ConversationRow, now = new Date()): Promise<ConversationExport> {
  return { format: "debatt-conversation", version: 1, exported_at: now.toISOString(), conversation: await conversationView(store, c) };
}

/** Every `<` that could open an HTML tag or comment, escaped (`\<`), as Markdown shows it. */
const withoutTags = (text: string) => text.replace(/<(?=[a-z/!?])/gi, "\\<");

/** Text as one Markdown block quote. */
const quoted = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");

/** The stages whose rows are answers, with their notes (reasoning, sources, ending). */
const ANSWER_STAGES = new Set(["debatt_answer", "compare_answer", "collect", "initial_answer", "deep_initial_answer"]);

/**
 * What an answer carries beside its text, after it: a cut ending, and its thinking folded away
 * (as plain text: no tag in it becomes HTML). Its sources are listed with the answer itself.
 */
function notesMarkdown(t: Translate, notes: AnswerNotes): string[] {
  const out: string[] = [];
  if (cutShort(notes.ending)) out.push(`_⚠ ${t(`notes.ending.${notes.ending}`)}_`, "");
  if (notes.reasoning) out.push(`<details><summary>${t("notes.thinking")}</summary>`, "", quoted(withoutTags(notes.reasoning)), "", "</details>", "");
  return out;
}

/**
 * One run's stages in Markdown, in the order they happened: who said what (each answer, turn,
 * revision, argument and verdict under its model), every vote with its reasons and what it chose
 * (an anonymised label also named by its model), the label maps as tables, and the computed
 * results (tallies, winner, analysis) as JSON.
 */
function stagesMarkdown(t: Translate, stages: StageRow[]): string[] {
  const out: string[] = [];
  // Labels of every label map of the run, for naming what a vote chose.
  const labels: Record<string, string> = {};
  for (const s of stages) if (/label_map$/.test(s.stageType)) Object.assign(labels, stageData(s));
  let heading = "";
  let round = 0;
  for (const s of stages) {
    const title = named(t, "export.stage", s.stageType);
    if (title !== heading) {
      out.push(`### ${title}`, "");
      heading = title;
      round = 0;
    }
    const data = stageData(s);
    if (Array.isArray(data.participants)) {
      // A panel: who took part, by name and model.
      const who = data.participants as { display?: string; model?: string }[];
      out.push(
        ...who.map((p) => `- ${plain(String(p.display ?? p.model))} (${plain(String(p.model))})`),
        ...(data.simulated === true ? ["", `_${t("export.simulated")}_`] : []),
        "",
      );
      continue;
    }
    if (typeof data.round === "number" && data.round !== round) {
      round = data.round;
      out.push(`#### ${t("export.round", { n: round })}`, "");
    }
    if (/label_map$/.test(s.stageType)) {
      out.push(
        `| ${t("export.label")} | ${t("export.model")} |`,
        "|---|---|",
        ...Object.entries(data).map(([label, model]) => `| ${plain(labelName(t, label))} | ${plain(String(model))} |`),
        "",
      );
      continue;
    }
    if (!s.model && s.role === null) {
      const tallies = data.tallies ?? data.vote_counts;
      if (tallies && typeof tallies === "object") {
        // A count: each answer (or debater) with its votes, most first.
        const rows = Object.entries(tallies as Record<string, number>).sort((a, b) => b[1] - a[1]);
        const name = (label: string) => plain(labels[label] ? `${labelName(t, label)} (${labels[label]})` : labelName(t, label));
        out.push(`| ${t("export.votedForColumn")} | ${t("export.votes")} |`, "|---|---|", ...rows.map(([label, n]) => `| ${name(label)} | ${n} |`), "");
        continue;
      }
      // Other reference data: the debate's analysis read as Markdown, anything else as it was stored.
      out.push(...(analysisMarkdown(t, data) ?? ["```json", JSON.stringify(data, null, 2), "```", ""]));
      continue;
    }
    // Only answers carry notes (a revision's own `reasoning` is its REASONING line, in its text).
    const notes = ANSWER_STAGES.has(s.stageType) ? notesFields(data) : {};
    const who = plain(
      [s.model, typeof data.display === "string" ? data.display : undefined, s.role ? named(t, "export.role", s.role) : undefined].filter(Boolean).join(" · "),
    );
    const chose = typeof data.votedFor === "string" ? data.votedFor : null;
    const choice = chose ? ` — ${t("export.votedFor", { choice: plain(labels[chose] ? `${labelName(t, chose)} (${labels[chose]})` : chose) })}` : "";
    // A person's seat that was skipped says how (passed, or no answer in time), not that it failed.
    const skip = s.model === PERSON_MODEL ? SKIP_REASONS.find((r) => data.error === SKIPPED[r]) : undefined;
    const failed = skip ? ` — ${t(`person.skipped.${skip}`)}` : typeof data.error === "string" ? ` — ${t("export.failed", { error: plain(data.error) })}` : "";
    // A person's words are plain text, not Markdown: no tag they typed becomes HTML.
    // A model's Markdown stays Markdown, with any HTML in it inert.
    // A vote replied as JSON reads as its motivation and points.
    const content =
      s.model === PERSON_MODEL ? withoutTags(s.content) : ((chose && voteReplyMarkdown(s.content)) ?? markdownWithoutHtml(withoutArenaData(s.content)));
    out.push(
      `**${who}**${choice}${failed}`,
      "",
      content.trim() ? quoted(withSources(content, notes.sources)) : `_${t("export.empty")}_`,
      "",
      ...notesMarkdown(t, notes),
    );
  }
  return out;
}

/**
 * A conversation as Markdown: its title, then each run: the question, the run's stages (see
 * `stagesMarkdown`), the answer the user read, how the run ended and what it cost.
 */
async function conversationMarkdown(store: HistoryStore, c: ConversationRow, t: Translate, now = new Date()): Promise<string> {
  const format = formatOfStoredMode(c.mode);
  const out = [
    `# ${c.title === null ? t("export.untitled") : plain(c.title)}`,
    "",
    `_${t("export.meta", { date: now.toISOString().slice(0, 10), mode: format ? FORMATS[format].command : "chat", id: c.id })}_`,
    "",
  ];
  const messages = await store.messagesOf(c.id);
  const stagesOf = new Map(await Promise.all(messages.filter((m) => m.role === "assistant").map(async (m) => [m.id, await store.stagesOf(m.id)] as const)));
  // The server's models are simulated or not for all its runs: a chat answer (which has no panel to say so) goes by the others.
  const simulated = [...stagesOf.values()].some((stages) => stages.some((s) => stageData(s).simulated === true));
  let n = 0;
  for (const m of messages) {
    if (m.role === "user") {
      out.push(`## ${t("export.question", { n: ++n })}`, "", quoted(withoutTags(m.content)), "");
      continue;
    }
    const stages = stagesOf.get(m.id) ?? [];
    out.push(...stagesMarkdown(t, stages));
    // The answer, unless a stage already showed it (the winner, a synthesis, a report, a follow-up's answer).
    const answer = markdownWithoutHtml(withoutArenaData(m.content)).trim();
    if (!answer || !stages.some((st) => markdownWithoutHtml(withoutArenaData(st.content)).trim() === answer))
      out.push(`### ${t("export.answer")}`, "", answer ? demoted(answer) : `_${t("export.empty")}_`, "");
    const facts = [
      named(t, "export.status", m.status),
      m.error ? t("export.failed", { error: plain(m.error) }) : "",
      m.usage ? usageWords(t, m.usage.total, { simulated }) : "",
    ];
    out.push(`_${facts.filter(Boolean).join(" · ")}_`, "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

/** Markdown whose headings sit below the export's own (`## Summary` → `#### Summary`). */
const demoted = (text: string) => text.replace(/^(#{1,4}) /gm, "##$1 ");

/**
 * The conversation as one HTML file that opens offline: the built page (`indexHtml`, with its
 * script and style files read through `asset`) with both inlined and the export's data in the page,
 * which then draws the conversation read-only, as the arena draws a reopened run.
 */
function conversationHtml(
  indexHtml: string,
  asset: (path: string) => string,
  data: ConversationExport,
  lang: string,
): { html: string; scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  // JSON in a data block: `</script` and the line separators JavaScript once choked on escaped.
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  // The page's own tags first, before the bundle (which could hold the same text) is inlined;
  // replaced by functions, so that a `$` in the data is text, not a replacement pattern.
  const html = indexHtml
    .replace(/<html lang="[^"]*">/, () => `<html lang="${lang}">`)
    .replace("<title>debatt</title>", () => `<title>${escapeHtml(data.conversation.title ?? "debatt")} · debatt</title>`)
    .replace("<body>", () => `<body>\n    <script type="application/json" id="debatt-export">${json}</script>`)
    .replace(/<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/g, (_m, src: string) => {
      const code = asset(src).replace(/<\/script/gi, "<\\/script");
      scripts.push(code);
      return `<script type="module">${code}</script>`;
    })
    .replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (_m, href: string) => {
      const css = asset(href).replace(/<\/style/gi, "<\\/style");
      styles.push(css);
      return `<style>${css}</style>`;
    });
  return { html, scripts, styles };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page a server serves: the one built beside this file, web/dist (`npm run build:web`) for a
 * server run through tsx, dist/web/dist (`npm run build`, which `npm start` runs first) for the
 * compiled server.
 */
export const WEB_DIST = fileURLToPath(new URL("../web/dist", import.meta.url));

/** The project's folder: this file is history/export.ts, or dist/history/export.js once compiled. */
const PROJECT_ROOT = (() => {
  const file = fileURLToPath(import.meta.url);
  const here = dirname(file);
  return file.endsWith(".js") && basename(dirname(here)) === "dist" ? resolve(here, "../..") : resolve(here, "..");
})();

/** Everywhere the product builds the page: `npm run build:web` into web/dist, `npm run build` (and so `npm start`) into dist/web/dist. */
export const PAGE_BUILDS: readonly string[] = [join(PROJECT_ROOT, "web", "dist"), join(PROJECT_ROOT, "dist", "web", "dist")];

/**
 * The folder of the newest built page among `dirs` (the one whose index.html was written last),
 * or undefined when none of them holds one. The CLI runs from the sources, so it finds the page
 * that `npm start` built into dist/web/dist as well as `npm run build:web`'s web/dist.
 */
export function builtPageDir(dirs: readonly string[] = PAGE_BUILDS): string | undefined {
  let newest: { dir: string; mtime: number } | undefined;
  for (const dir of dirs) {
    const index = join(dir, "index.html");
    if (!existsSync(index)) continue;
    const mtime = statSync(index).mtimeMs;
    if (!newest || mtime > newest.mtime) newest = { dir, mtime };
  }
  return newest?.dir;
}

/** What a server or the CLI says when the page is needed and not built. */
export const PAGE_NOT_BUILT = "the arena page is not built: `npm start` (or `npm run build`) builds it, and so does `npm run build:web`";

/** The built page's index.html and a reader of its files, from the newest of `dirs`; throws `page_not_built` when none is built. */
export function builtPage(dirs: readonly string[] = PAGE_BUILDS): { dir: string; index: string; asset: (path: string) => string } {
  const dir = builtPageDir(dirs);
  if (dir === undefined) throw new DebattError("page_not_built", PAGE_NOT_BUILT);
  return {
    dir,
    index: readFileSync(join(dir, "index.html"), "utf8"),
    asset: (path) => readFileSync(join(dir, path.replace(/^\.?\//, "")), "utf8"),
  };
}

/** An export as a file: its text, its media type and a file name. */
export interface ExportFile {
  body: string;
  contentType: string;
  filename: string;
  /** The HTML export's Content-Security-Policy, for a server that serves it (the file carries it too). */
  policy?: string;
}

/**
 * The Content-Security-Policy of an HTML export: its own inline scripts and styles, by their
 * hashes, images only from `data:`, and nothing else: a model's markup, an image's tracking pixel
 * or a form loads nothing and sends nothing. `framed` adds what only a header can carry (not the
 * file's own `<meta>`): that no other site may frame it.
 */
function exportPolicy(scripts: string[], styles: string[], framed: boolean): string {
  const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  return [
    "default-src 'none'",
    `script-src ${scripts.map(sha).join(" ")}`,
    `style-src ${styles.map(sha).join(" ")}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    ...(framed ? ["frame-ancestors 'none'"] : []),
  ].join("; ");
}

/** The conversation exported as `format`, in the reader's language `lang` (Markdown and the HTML page's words). */
export async function exportConversation(store: HistoryStore, c: ConversationRow, format: ExportFormat, t: Translate, lang: string): Promise<ExportFile> {
  const name = `debatt-${c.id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60)}`;
  switch (format) {
    case "md":
      return { body: await conversationMarkdown(store, c, t), contentType: "text/markdown; charset=utf-8", filename: `${name}.md` };
    case "json":
      return {
        body: `${JSON.stringify(await conversationExport(store, c), null, 2)}\n`,
        contentType: "application/json; charset=utf-8",
        filename: `${name}.json`,
      };
    case "html": {
      const page = builtPage();
      const { html, scripts, styles } = conversationHtml(page.index, page.asset, await conversationExport(store, c), lang);
      // The file keeps its policy wherever it is opened (from a disk, a mail, another server).
      const meta = `<meta http-equiv="Content-Security-Policy" content="${exportPolicy(scripts, styles, false)}">`;
      return {
        body: html.replace("<head>", () => `<head>\n    ${meta}`),
        contentType: "text/html; charset=utf-8",
        filename: `${name}.html`,
        policy: exportPolicy(scripts, styles, true),
      };
    }
  }
}
