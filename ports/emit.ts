import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { onTheWire, type EventInput, type EventName } from "../state/events.js";

/**
 * The one place custom events leave the graph: `config.writer`, read with `streamMode: "custom"`
 * (dispatchCustomEvent would only reach streamEvents). Adds the timestamp every payload carries,
 * and the snake_case names of its camelCase fields (`onTheWire`).
 */
export function emit<N extends EventName>(config: LangGraphRunnableConfig, event: N, data: EventInput<N>): void {
  config.writer?.({ event, data: onTheWire(event, { ...data, timestamp: new Date().toISOString() }) });
}
