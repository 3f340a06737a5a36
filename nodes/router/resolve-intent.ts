import { randomUUID } from "node:crypto";
import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { materialText } from "../../state/client-material.js";
import { parseCommand } from "../../state/commands.js";
import { FORMATS, type FormatId } from "../../state/formats.js";
import { translate, usageHelp } from "../../state/messages/index.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { textOf } from "../shared/model-call.js";

/** The format of a command's name (`/vote` → `vote`). */
const formatOfCommandName = (command: string) => command.slice(1) as FormatId;

/**
 * resolve_intent: reads the message and routes it: `/debatt <topic>` and `/dvoice <topic>` to the
 * debate (the latter also sets voice mode), `/compare`, `/vote`, `/revise`, `/deep` and `/council`
 * to their subgraphs, a command without a topic (or with an unknown option) to a clear message,
 * anything else to the supervisor's chat answer (or, for a follow-up to one participant of a
 * finished run, to that participant: `continue_answer`). It also fixes the run's id and its format
 * options: the run configuration's, with the options written in the message on top.
 */
export function makeResolveIntent(deps: NodeDeps) {
  return async function resolveIntent(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    // The `message` input is consumed (cleared) so that a later run on the same thread that only
    // appends to `messages` (LangGraph Studio's chat) is not mistaken for the old message.
    const fromInput = state.message !== "";
    const lastHuman = [...state.messages].reverse().find((m) => HumanMessage.isInstance(m));
    const text = fromInput ? state.message : lastHuman ? textOf(lastHuman.content) : "";
    const base: StateUpdate = {
      message: "",
      material: [],
      voice_mode: false,
      run_id: ctx.run.runId ?? randomUUID(),
      question: "",
      asked: "",
      options: ctx.run.options,
      answer: null,
      ...(fromInput ? { messages: [new HumanMessage(text)] } : {}),
    };
    const command = parseCommand(text);
    // Material that came with the message is read with the question, by every participant, in every step.
    const material = fromInput ? state.material : [];
    const read = (question: string) => (material.length > 0 ? ctx.prompts.render("run.material", { question, material: materialText(material) }) : question);
    switch (command.kind) {
      case "debate":
        return {
          ...base,
          route: "debate",
          voice_mode: command.voice,
          debate_topic: read(command.topic),
          asked: command.topic,
          options: { ...ctx.run.options, ...command.options },
        };
      case "compare":
        return { ...base, route: "compare", question: read(command.question), asked: command.question };
      case "deliberation":
        // Options in the message (`--debate`) add to those of the run configuration.
        return { ...base, route: command.mode, question: read(command.question), asked: command.question, options: { ...ctx.run.options, ...command.options } };
      case "bad_option":
        emit(config, "error", {
          code: "unknown_option",
          message: `${command.command} has no option ${command.option}; ${command.allowed.length ? `its options: ${command.allowed.join(", ")}` : "it takes no options"}`,
          reason: command.allowed.length
            ? { key: "unknownOption", values: { command: command.command, option: command.option, options: command.allowed.join(", ") } }
            : { key: "noOptions", values: { command: command.command, option: command.option } },
        });
        return { ...base, route: "usage" };
      case "missing_topic": {
        // In English, for programs and logs; the page and the terminal word it in the reader's language.
        const [example] = usageHelp((key, values) => translate("en", key, values), command.command, { code: command.kind, message: "" }).examples;
        emit(config, "error", {
          code: "missing_topic",
          message: `${command.command} needs a ${FORMATS[formatOfCommandName(command.command)].takes}, e.g. "${example}"`,
        });
        return { ...base, route: "usage" };
      }
      case "chat":
        if (!command.text) {
          emit(config, "error", { code: "empty_message", message: "the message is empty: write a question or /debatt <topic>" });
          return { ...base, route: "usage" };
        }
        // A follow-up to one participant of a finished run goes to that participant.
        return { ...base, route: state.continuation ? "continue" : "supervisor" };
    }
  };
}
