import { z } from "zod";
import type { ClientEvent } from "../state/events.js";
import { UsageReportSchema } from "../state/usage.js";
import type { FormatDefinition } from "./format-definition.js";
import { DEFINED_FORMATS, FORMAT_DEFINITIONS } from "./formats.js";

/** The formats' definitions, in their order. */
const DEFINITIONS: FormatDefinition[] = DEFINED_FORMATS.map((id) => FORMAT_DEFINITIONS[id]);

/** What every run's outcome has, whatever its format. */
const BASE = {
  run_id: z.string(),
  conversation_id: z.string(),
  /** How the run ended: its result is in, it failed, or it was stopped. */
  status: z.enum(["complete", "error", "cancelled"]),
  /** Why it did not complete. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** True when the answers were simulated offline (no provider key). */
  simulated: z.boolean(),
  /** The conversation's title, when the format gives one. */
  title: z.string().optional(),
  /** What the run's model calls used and cost: in all, by participant and by stage. */
  usage: UsageReportSchema.extend({ budget_usd: z.number().optional(), simulated: z.boolean() }).optional(),
};

/**
 * What a run came to, for programs: its ids, how it ended, and the verdict its format gives (each
 * format's definition adds its fields: the winner and the votes of /debatt, /vote and /revise;
 * /council's consensus; /deep's rounds; /compare's counts). The MCP tools return it as their
 * structured content, with what the run cost.
 */
export const RunOutcomeSchema = z.object({ ...Object.assign({}, ...DEFINITIONS.map((d) => d.outcome.fields)), ...BASE });
export type RunOutcome = z.infer<z.ZodObject<typeof BASE>> & Record<string, unknown>;

/** Reads a run's events, one at a time, into its outcome: what every run has here, its verdict by its format's reader. */
export function outcomeReader() {
  const o: RunOutcome = { run_id: "", conversation_id: "", status: "complete", simulated: false };
  let format: ((e: ClientEvent, outcome: Record<string, unknown>) => void) | undefined;
  const read = (e: ClientEvent): void => {
    const starting = DEFINITIONS.find((d) => d.starts(e));
    if (starting) format = starting.outcome.reader();
    format?.(e, o);
    switch (e.event) {
      case "metadata":
        o.run_id = e.data.run_id;
        o.conversation_id = e.data.thread_id;
        break;
      case "usage": {
        const { timestamp: _, ...usage } = e.data;
        o.usage = usage;
        break;
      }
      case "title-complete":
        o.title = e.data.data.title;
        break;
      case "error":
        // A replay that could not be complete says nothing of how the run itself went.
        if (e.data.code === "replay_incomplete") break;
        o.status = e.data.code === "cancelled" ? "cancelled" : "error";
        o.error = { code: e.data.code, message: e.data.message };
        break;
      default:
        // A format's verdict is its reader's (above).
        break;
    }
  };
  return { read, outcome: (): RunOutcome => o };
}
