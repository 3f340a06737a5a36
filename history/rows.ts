import { shortTitle } from "../state/replies/title.js";
import { parseCommand, formatOfCommand } from "../state/commands.js";
import { FORMATS, isFormatId, type StoredMode } from "../state/formats.js";
import type { State } from "../state/graph-state.js";
import type { HistoryFormats } from "./codec.js";
import { Rows, type RunFacts } from "./row-kit.js";
import type { NewStage } from "./stage.js";

export { participantKeyOf, type RunFacts } from "./row-kit.js";

/**
 * The `deliberation_stages` rows of a run, computed from the graph's states: the top graph's for
 * /debatt and /dvoice, each format subgraph's own for the others, by the format's codec
 * (history/formats/<format>.ts), with the shared pieces below (a panel, answers, votes, a tally). Rows appear as their
 * stage lands in the state, and each has a stable id, so writing them again (a resumed run)
 * changes nothing. A row of one participant has an id ending with the participant's key (after the
 * round, `2:call_gpt`, where a participant has one row per round), which `history/load.ts` reads
 * back to tell participants that share a model apart.
 */

/** The stored mode of a message's run, from its command. */
export function modeOfMessage(message: string): StoredMode {
  const format = formatOfCommand(parseCommand(message));
  return format ? FORMATS[format].storedMode : "chat";
}

/** A conversation's title until a run generates one: its first question, shortened. */
export function titleOf(question: string): string {
  // The question without its command and options (an option's value too: `--order simultaneous`).
  const command = parseCommand(question);
  const asked = command.kind === "debate" ? command.topic : command.kind === "compare" || command.kind === "deliberation" ? command.question : question;
  const text = asked.replace(/\s+/g, " ").trim() || question.trim();
  return [...text].length > 80 ? shortTitle(text, 80) : text;
}

/** The id of the run the top graph's state holds (the debate's id, or the format run's), or null. */
export function runIdOf(state: State): string | null {
  switch (state.route) {
    case "debate":
      return state.debate_id;
    case "continue":
      return state.run_id;
    case "supervisor":
    case "usage":
    case null:
      return null;
    default:
      // A format's subgraph.
      return state.run_id;
  }
}

/**
 * The rows a state holds for the run `messageId`: the top graph's (`namespace` empty) for a
 * debate, a format subgraph's (`namespace` names it, e.g. `vote:<task id>`) for the others.
 * Nothing for a state of another run (the top graph keeps an earlier debate until the next one
 * is planned), so a follow-up never writes its predecessor's rows again.
 */
export function stageRows(
  state: Record<string, unknown>,
  namespace: readonly string[],
  messageId: string,
  formats: HistoryFormats,
  facts: RunFacts = { simulated: false },
): NewStage[] {
  const rows = new Rows(messageId);
  if (namespace.length === 0) {
    const root = state as State;
    if (root.route === "debate" && root.debate_id === messageId) formats[root.voice_mode ? "dvoice" : "debatt"].rows(root as never, rows, facts);
    if (root.route === "continue" && root.run_id === messageId) continueRow(root, rows, facts);
    return rows.out;
  }
  if (namespace.length > 1 || state.run_id !== messageId) return [];
  // A subgraph is mounted under its format's name.
  const format = namespace[0].split(":")[0];
  if (isFormatId(format)) formats[format].rows(state as never, rows, facts);
  return rows.out;
}

/**
 * A follow-up to one participant of a finished run: `continue_answer` 1, its answer under the
 * participant (`{run_id, participant}` of the run it went on from), once the answer is in.
 */
function continueRow(state: State, rows: Rows, facts: RunFacts): void {
  const c = state.continuation;
  if (!c || state.answer === null) return;
  rows.add("continue_answer", 1, 0, c.participant.key, {
    model: c.participant.model,
    role: "respondent",
    content: state.answer,
    parsedData: { run_id: c.run_id, participant: c.participant, ...(facts.simulated ? { simulated: true } : {}) },
  });
}

/**
 * The assistant message of a finished run, from the top graph's state: the answer the user reads
 * (a format subgraph hands its answer back as `answer`).
 */
export function answerText(state: State): string {
  switch (state.route) {
    case "debate":
      return state.debate_synthesis ?? "";
    case "supervisor": {
      const last = state.messages[state.messages.length - 1];
      return last && last.getType() === "ai" && typeof last.content === "string" ? last.content : "";
    }
    default:
      return state.answer ?? "";
  }
}
