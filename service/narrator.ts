import type { ClientEvent } from "../state/events.js";
import { restartKey } from "../state/events/restart.js";
import { costLine, errorWords, type Translate as T } from "../state/messages/index.js";
import type { FormatDefinition, NarrationContext, Narrator } from "./format-definition.js";
import { DEFINED_FORMATS, FORMAT_DEFINITIONS } from "./formats.js";
import type { Part, Styles, Write } from "./narration.js";
import type { NotesOptions } from "./narrator-notes.js";

/** The formats' definitions, in their order: the first whose start event an event is names the run's format. */
const DEFINITIONS: FormatDefinition[] = DEFINED_FORMATS.map((id) => FORMAT_DEFINITIONS[id]);

/**
 * Tells a run's events as text for people, in the reader's language: each format's own events by
 * that format's narrator (its definition's `narrate`, chosen by the run's start event), then what
 * every run has (its title, its usage, an error). The terminal prints all of it; the
 * OpenAI-compatible and MCP surfaces keep the progress apart from the result. `status` hears who
 * is writing now (empty when nobody is). An answer's sources and a cut ending are told after it;
 * its thinking only with `options.showThinking`.
 */
export function createNarrator(write: Write, c: Styles, t: T, status: (s: string) => void = () => {}, options: NotesOptions = {}) {
  const restarts = new Restarts();
  const context: NarrationContext = { write: (text, part) => write(text, restarts.part(part)), c, t, status, options };
  let format: Narrator | undefined;
  // Events read from the middle of a run (no start event yet): the first format that tells one is the run's.
  let unknown: Narrator[] | undefined;
  return (e: ClientEvent): void => {
    restarts.heard(e);
    const starting = DEFINITIONS.find((d) => d.starts(e));
    if (starting) format = starting.narrate(context);
    if (!format) {
      unknown ??= DEFINITIONS.map((d) => d.narrate(context));
      format = unknown.find((tell) => tell(e));
      if (format) return;
    }
    if (format?.(e)) return;
    switch (e.event) {
      case "title-complete":
        write(c.dim(`\n${t("cli.title", { title: e.data.data.title })}\n`));
        break;
      case "usage":
        write(c.dim(`\n${costLine(t, e.data)}\n`));
        break;
      case "run-resumed":
        write(c.dim(`\n${t("answer.resumed")}\n`));
        break;
      case "error":
        write(c.red(`\n${t("cli.error", { code: e.data.code, message: errorWords(t, e.data.code, e.data.message, e.data.reason) ?? e.data.message })}\n`));
        break;
      default:
        // A format's own events are its narrator's (above); the rest tell nothing.
        break;
    }
  };
}

/**
 * Which answers begin anew after a take-up (`run-resumed`): those whose text had begun before it.
 * The first result told of the first deltas of one again (the synthesis's first delta may tell
 * nothing: its arena block) is `result-again`.
 */
class Restarts {
  private readonly begun = new Set<string>();
  private again = new Set<string>();
  /** The answer begun anew whose result is not told yet, while its deltas come. */
  private restarting: string | undefined;

  /** Hears the next event, before it is told. */
  heard(e: ClientEvent): void {
    if (e.event === "run-resumed") this.again = new Set(this.begun);
    const key = restartKey(e);
    if (key !== this.restarting) this.restarting = undefined;
    if (key === undefined) return;
    this.begun.add(key);
    if (this.again.delete(key)) this.restarting = key;
  }

  /** The part a piece told now is. */
  part(part: Part | undefined): Part | undefined {
    if (part !== "result" || this.restarting === undefined) return part;
    this.restarting = undefined;
    return "result-again";
  }
}
