import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EventInput, EventName } from "../state/events.js";

/**
 * The one place custom events leave the graph: `config.writer`, read with `streamMode: "custom"`
 * (dispatchCustomEvent would only reach streamEvents). Adds the timestamp every payload carries.
 */
export function emit<N extends EventName>(config: LangGraphRunnableConfig, event: N, data: EventInput<N>): void {
  config.writer?.({ event, data: { ...data, timestamp: new Date().toISOString() } });
}
