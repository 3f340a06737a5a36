import type { ClientEvent, ClientPayload } from "../../state/events.js";
import type { DeliberationMode } from "../../state/formats.js";
import { seconds } from "../../state/messages/index.js";
import type { NarrationContext } from "../format-definition.js";
import { notesText } from "../narrator-notes.js";

/** One answer of a parallel stage, as far as it has come. */
interface Answer {
  display: string;
  text: string;
  ended?: { status: "ok" | "error"; error?: string; responseTimeMs: number };
}

/** A stage's answers when all are in (`stage1-complete`, `round1-complete`, `moa-layer-complete`). */
type StageAnswers = ClientPayload<"stage1-complete">;

/**
 * Tells a stage's parallel answers as they are written, in one text: one answer at a time is
 * told live, delta by delta (the format's `mode`, the answers' `stages`); the others are held meanwhile. When the live one ends, the held
 * answers that have ended are told whole, then one still being written goes live (what it has
 * written so far first). When the stage is in, anything not told yet is told from the stage's
 * event, with each answer's sources, cut ending and thinking. So a reader sees text from the
 * first answer's first words instead of waiting for the slowest model.
 */
export function liveAnswers({ write, c, t, options }: NarrationContext, mode: DeliberationMode, stages: readonly string[]) {
  let answers = new Map<string, Answer>();
  let told = new Set<string>();
  let live: string | undefined;

  const header = (display: string, ms?: number) =>
    `\n${c.cyan(c.bold(`▶ ${display}`))}${ms === undefined ? "" : ` ${c.dim(t("unit.seconds", { seconds: seconds(ms) }))}`}\n`;
  const failure = (display: string, error = "") => write(c.red(`\n✗ ${display}: ${error}\n`));
  const ending = (a: Answer) => {
    if (a.ended?.status === "error") failure(a.display, a.ended.error);
    else write(a.text.endsWith("\n") ? "" : "\n");
  };
  const whole = (key: string, a: Answer) => {
    told.add(key);
    if (a.ended?.status === "error" && a.text === "") return failure(a.display, a.ended.error);
    write(`${header(a.display, a.ended?.responseTimeMs)}${a.text}`);
    ending(a);
  };
  /** The live answer has ended: the ended ones held are told, and the next one still being written goes live. */
  const handOver = () => {
    live = undefined;
    for (const [key, a] of answers) if (a.ended && !told.has(key)) whole(key, a);
    const next = [...answers].find(([key, a]) => !a.ended && !told.has(key));
    if (!next) return;
    live = next[0];
    write(`${header(next[1].display)}${next[1].text}`);
  };

  return {
    /** Tells (or holds) a piece of one of the stages' answers; false for any other event. */
    hear(e: ClientEvent): boolean {
      if (e.event === "run-resumed") {
        // The answers being written begin anew; those told whole stay told.
        if (live !== undefined) write("\n");
        for (const key of answers.keys()) if (!told.has(key)) answers.delete(key);
        live = undefined;
        return false;
      }
      if ((e.event !== "answer-delta" && e.event !== "answer-end") || e.data.mode !== mode || !stages.includes(e.data.stage)) return false;
      const key = e.data.modelKey;
      if (told.has(key)) return true;
      const a = answers.get(key) ?? { display: e.data.display, text: "" };
      answers.set(key, a);
      if (e.event === "answer-delta") {
        a.text += e.data.delta;
        if (live === undefined) {
          live = key;
          write(`${header(a.display)}${a.text}`);
        } else if (live === key) write(e.data.delta);
        return true;
      }
      a.ended = { status: e.data.status, error: e.data.error, responseTimeMs: e.data.responseTimeMs };
      if (live === key) {
        told.add(key);
        ending(a);
        handOver();
      } else if (live === undefined) {
        whole(key, a);
      }
      return true;
    },
    /** The stage is in: what was not told is told now, then each answer's notes. */
    complete(d: StageAnswers): void {
      // A live answer whose end was not heard (events recorded before answers told their end) was told whole, live.
      if (live !== undefined) {
        told.add(live);
        write("\n");
      }
      for (const r of d.data) {
        if (told.has(r.modelKey)) {
          const notes = notesText(r, c, t, options);
          if (notes) write(`${c.dim(`▶ ${r.display}`)}\n${notes}`);
        } else write(`${header(r.display, r.responseTimeMs)}${r.response}\n${notesText(r, c, t, options)}`);
      }
      for (const f of d.failed) if (!told.has(f.modelKey)) failure(f.display, f.error);
      answers = new Map();
      told = new Set();
      live = undefined;
    },
  };
}
