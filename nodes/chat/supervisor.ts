import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import { DeltaCoalescer } from "../shared/delta-coalescer.js";
import { emit } from "../../ports/emit.js";
import type { NodeDeps, RunContext } from "../../ports/node-deps.js";
import { SEARCH_LIMITS, type SearchClient } from "../../ports/models.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { ModelCallError, rethrowIfCancelled, streamMessage, textOf, withTimeout } from "../shared/model-call.js";
import { answerTokens } from "../../state/run-config.js";

/** Model/tool round trips one chat answer may take before it must answer. */
const MAX_TOOL_ROUNDS = 2;

/** The web-search tool the supervisor's model may call when Tavily is configured. */
function webSearchTool(search: SearchClient, signal: AbortSignal) {
  return tool(
    async ({ query }: { query: string }) => {
      const results = await search.search(query, { ...SEARCH_LIMITS, signal });
      return results.map((r) => `[Tavily Result] ${r.title} (${r.url}): ${r.content}`).join("\n") || "no results";
    },
    {
      name: "web_search",
      description: "Search the web for current facts. Use only for recent events or facts you are unsure of.",
      schema: z.object({ query: z.string().describe("the search query") }),
    },
  );
}

/**
 * supervisor: the normal chat route for every message that is not a debate command. OneSeek's
 * model answers, streamed as `text_delta`; with TAVILY_API_KEY it may call `web_search` first.
 * A failure ends with an `error` event, never a thrown run.
 */
export function makeSupervisor(deps: NodeDeps) {
  return async function supervisor(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const system = ctx.prompts.render("debate.supervisor.instructions", { date: ctx.today() });
    const history: BaseMessage[] = [new SystemMessage(system), ...state.messages];
    const coalescer = new DeltaCoalescer((delta) => emit(config, "text_delta", { delta }), ctx.coalesceMs);
    try {
      const answer = await withTimeout(ctx.run.responseTimeoutMs, config.signal, (signal) => chat(deps, ctx, history, signal, (d) => coalescer.push(d)));
      coalescer.flush();
      return { messages: [new AIMessage(answer)] };
    } catch (err) {
      coalescer.flush();
      rethrowIfCancelled(err);
      const message = `the chat model failed: ${(err as Error).message}`;
      ctx.log(message);
      emit(config, "error", { code: err instanceof ModelCallError ? err.code : "model_error", message });
      return {};
    }
  };
}

async function chat(deps: NodeDeps, ctx: RunContext, history: BaseMessage[], signal: AbortSignal, onDelta: (d: string) => void): Promise<string> {
  const lastText = textOf(history[history.length - 1]?.content ?? "");
  const base = deps.models.create({ phase: "supervisor", topic: lastText, maxTokens: answerTokens(ctx.run, "chat"), reasoning: ctx.run.reasoning });
  const search = deps.search;
  const searchTool = search && typeof base.bindTools === "function" ? webSearchTool(search, signal) : null;
  const messages = [...history];
  for (let round = 0; ; round++) {
    const model = searchTool && round < MAX_TOOL_ROUNDS ? base.bindTools!([searchTool]) : base;
    const answer = await streamMessage(model, messages, signal, onDelta);
    const calls = answer.tool_calls ?? [];
    if (!searchTool || calls.length === 0) return textOf(answer.content);
    messages.push(new AIMessage({ content: answer.content, tool_calls: calls }));
    for (const call of calls) {
      const output = await searchTool.invoke(call.args as { query: string }).catch((e: Error) => `search failed: ${e.message}`);
      messages.push(new ToolMessage({ content: String(output), tool_call_id: call.id ?? call.name }));
    }
  }
}
