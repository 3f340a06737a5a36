import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { z } from "zod";
import { conversationSummary, conversationView } from "../history/load.js";
import { decodeCursor, type HistoryStore } from "../history/store.js";
import type { Settings } from "../state/config.js";
import type { FormatOptions } from "../state/run-config.js";
import { DebattError } from "../state/errors.js";
import { FORMATS, MAX_PARTICIPANTS, type FormatId } from "../state/formats.js";
import { detectLanguage } from "../state/language.js";
import { errorWords, translate, type MessageKey } from "../state/messages/index.js";
import { ownersVisibleTo, type Requester } from "../state/ownership.js";
import { participantsFor, resolveParticipant } from "../state/participants.js";
import { checkedUserText, MAX_MESSAGE_CHARS } from "../state/text.js";
import { followRun } from "./follow-run.js";
import { DEFINED_FORMATS, FORMAT_DEFINITIONS } from "./formats.js";
import { MARKDOWN_STYLES } from "./narration.js";
import { createNarrator } from "./narrator.js";
import { outcomeReader, RunOutcomeSchema } from "./outcome.js";
import type { RunService } from "./run-service.js";

/** What the MCP server needs: the run service, the settings (the roster) and the history. */
export interface McpDeps {
  service: RunService;
  settings: Settings;
  history?: HistoryStore;
}

/** Who calls the tools: the user the runs belong to, and whose run limits they count against. */
export interface McpCaller extends Requester {
  quotaKey: string;
  /**
   * Hears of each tool call in flight by its JSON-RPC id, with a way to stop it (a transport whose
   * client went away without cancelling); returns what forgets it again.
   */
  track?: (requestId: string | number, stop: () => void) => () => void;
}

/** The longest progress message: a long paragraph is cut (the result itself never is). */
const MAX_PROGRESS_CHARS = 2_000;

const question = z.string().min(1).max(MAX_MESSAGE_CHARS).describe("The question, topic or claim");
const participants = z
  .array(z.string().min(1).max(64))
  .max(MAX_PARTICIPANTS)
  .optional()
  .describe("Participant keys or names of the roster (deliberation formats also take model ids); the format's default when absent");
const seed = z.number().int().optional().describe("Seed for the speaking orders and labels (the same seed gives the same order)");
const maxCostUsd = z
  .number()
  .positive()
  .max(10_000)
  .optional()
  .describe("The most this run may cost in USD (it can lower the server's DEBATT_MAX_COST_USD, never raise it)");

/** The tools: one per format that has one, named and described by its definition, with its options. */
export const TOOLS = DEFINED_FORMATS.flatMap((format) => {
  const { mcp, options, seeded } = FORMAT_DEFINITIONS[format];
  if (!mcp) return [];
  return [
    { name: mcp.tool, format, description: mcp.description, options: options.extend({ ...(seeded ? { seed } : {}), max_cost_usd: maxCostUsd }).strict() },
  ];
});

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tool's answer to a call it cannot run: the problem, worded for the caller. */
function refusal(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/**
 * Sends the narrated progress of a run as MCP progress notifications, a line at a time, when the
 * client asked for progress (a `progressToken`).
 */
function progressSender(extra: Extra) {
  const token = extra._meta?.progressToken;
  let pending = "";
  let count = 0;
  const send = (line: string) => {
    if (token === undefined || line.trim() === "") return;
    const message = line.length > MAX_PROGRESS_CHARS ? `${line.slice(0, MAX_PROGRESS_CHARS)}…` : line;
    count++;
    // A client that went away cannot be told; the run is stopped by the call's signal.
    extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: count, message } }).catch(() => {});
  };
  return {
    write(text: string) {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) send(line);
    },
    flush() {
      send(pending);
      pending = "";
    },
  };
}

/** The run options of a tool call, as the run's configuration. */
function configurableOf(options: Record<string, unknown>) {
  const { seed: chosen, max_cost_usd, ...rest } = options as { seed?: number; max_cost_usd?: number } & FormatOptions;
  const base = { ...(chosen === undefined ? {} : { seed: chosen }), ...(max_cost_usd === undefined ? {} : { max_cost_usd }) };
  return Object.keys(rest).length === 0 ? base : { ...base, mode_config: rest };
}

/**
 * The MCP server of one caller: a tool per format (`debate`, `vote`, `revise`, `deep`,
 * `council`, `compare`), each taking `{question, participants?, options?}` and returning the
 * result as text (markdown) with the outcome as structured content; the deliberation is sent as
 * progress notifications while it runs, and a cancelled call stops its run. With a history,
 * `list_conversations` and `get_conversation` read the caller's own runs.
 */
export function createMcpServer(deps: McpDeps, caller: McpCaller): McpServer {
  const server = new McpServer({ name: "debatt", version: "0.1.0" }, { capabilities: { logging: {} } });
  for (const tool of TOOLS) {
    const { format } = tool;
    server.registerTool(
      tool.name,
      {
        title: `${FORMATS[format].command}`,
        description: tool.description,
        inputSchema: { question, participants, options: tool.options.optional() },
        outputSchema: RunOutcomeSchema.shape,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      },
      (args: { question: string; participants?: string[]; options?: Record<string, unknown> }, extra: Extra) => runTool(deps, caller, format, args, extra),
    );
  }
  if (deps.history) registerHistory(server, deps, deps.history, caller);
  return server;
}

/** Runs one format for a tool call and answers with its result and outcome. */
async function runTool(
  deps: McpDeps,
  caller: McpCaller,
  format: FormatId,
  args: { question: string; participants?: string[]; options?: Record<string, unknown> },
  extra: Extra,
): Promise<CallToolResult> {
  const lang = detectLanguage(args.question);
  const t = (key: MessageKey, values?: Record<string, string | number>) => translate(lang, key, values);
  const options = args.options ?? {};
  const { settings, service } = deps;
  let runId: string;
  try {
    const text = checkedUserText("question", args.question).trim();
    participantsFor(format, settings.roster, args.participants, settings.allowedModels);
    if (typeof options.chairman === "string") resolveParticipant(settings.roster, options.chairman, settings.allowedModels);
    ({ runId } = await service.start({
      message: `${FORMATS[format].command} ${text}`,
      question: text,
      participants: args.participants,
      configurable: configurableOf(options),
      owner: caller.id,
      quotaKey: caller.quotaKey,
    }));
  } catch (err) {
    if (DebattError.isInstance(err)) return refusal(errorWords(t, err.code, err.message, err.reason) ?? err.message);
    return refusal((err as Error).message);
  }
  let result = "";
  const progress = progressSender(extra);
  // The tool's result is written whole at the end: a result begun anew (its run taken up again) replaces what it had.
  const narrator = createNarrator(
    (s, part = "progress") => (part === "result" ? (result += s) : part === "result-again" ? (result = s) : progress.write(s)),
    MARKDOWN_STYLES,
    t,
  );
  const reader = outcomeReader();
  // Cancelled by the client (notifications/cancelled), or stopped by the transport when the client left.
  const gone = new AbortController();
  const forget = caller.track?.(extra.requestId, () => gone.abort()) ?? (() => {});
  await followRun(
    service,
    runId,
    AbortSignal.any([extra.signal, gone.signal]),
    (e) => {
      reader.read(e);
      narrator(e);
    },
    "the MCP client cancelled the tool call, or left",
  ).finally(forget);
  progress.flush();
  const outcome = reader.outcome();
  if (outcome.error && !result.trim()) {
    const words = errorWords(t, outcome.error.code, outcome.error.message) ?? outcome.error.message;
    return { isError: true, content: [{ type: "text", text: words }], structuredContent: { ...outcome } };
  }
  const note = outcome.error ? `\n\n${errorWords(t, outcome.error.code, outcome.error.message) ?? outcome.error.message}` : "";
  return { content: [{ type: "text", text: `${result.trim()}${note}` }], structuredContent: { ...outcome } };
}

/** The history as two tools: the caller's conversations, newest first, and one with its runs' results. */
function registerHistory(server: McpServer, deps: McpDeps, history: HistoryStore, caller: McpCaller): void {
  server.registerTool(
    "list_conversations",
    {
      title: "List conversations",
      description: "Your conversations (runs of every format), newest first; pass nextCursor as cursor for the next page.",
      inputSchema: { limit: z.number().int().min(1).max(100).optional(), cursor: z.string().max(512).optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ limit, cursor }) => {
      const from = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !from) return refusal("cursor must be the nextCursor of a previous page");
      const page = await history.listConversations(ownersVisibleTo(caller), limit ?? 20, from);
      const body = { conversations: page.conversations.map(conversationSummary), nextCursor: page.nextCursor };
      return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
    },
  );
  server.registerTool(
    "get_conversation",
    {
      title: "Get a conversation",
      description: "One of your conversations with its messages; each answer carries its run's full result (answers, votes, verdicts).",
      inputSchema: { id: z.string().min(1).max(128) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      const c = await history.conversation(id);
      // Another user's conversation is answered as one that does not exist.
      if (!c || !(await deps.service.mayUseThread(caller, id))) return refusal(`conversation "${id}" not found (never started here, or deleted)`);
      const body = await conversationView(history, c);
      return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
    },
  );
}
