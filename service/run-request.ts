import type { BaseMessage } from "@langchain/core/messages";
import type { RunConfig } from "../state/run-config.js";
import type { Material } from "../state/client-material.js";
import type { Continuation } from "../state/continuation.js";
import type { PriceTable } from "../state/usage.js";
import type { RunMeters } from "./meter.js";

/** A run's budget: its own `max_cost_usd` may lower the server's (DEBATT_MAX_COST_USD), never raise it. */
export function budgetOf(runUsd: number | undefined, serverUsd: number | undefined): number | undefined {
  if (runUsd === undefined) return serverUsd;
  return serverUsd === undefined ? runUsd : Math.min(runUsd, serverUsd);
}

/** How a run's model calls are counted and priced, and the budget a run has unless it sets its own. */
export interface RunCosts {
  meters: RunMeters;
  prices: PriceTable;
  /** The internal model's id, for the price of its calls. */
  internalModel: string;
  maxCostUsd?: number;
}

/** What starts a new run. */
export interface RunRequest {
  /** The message as typed, e.g. `/vote Which language?`. */
  message: string;
  /** Participant keys or names (default: the format's). */
  participants?: string[];
  /** The conversation (thread) to continue; a new one of the run's id by default. */
  threadId?: string;
  /** The user's question as the history stores it (default: the message). */
  question?: string;
  /** The conversation before the message, when the thread does not keep it (a client that sends the whole conversation each time). */
  history?: BaseMessage[];
  /** The run's configuration (a deliberation format's `mode_config`, a shuffle seed, prompt overrides…). */
  configurable?: RunConfig;
  /** The user who starts it and owns it (the local user by default). */
  owner?: string;
  /** Whose limits it counts against: the user, or without users the client's address (default: the owner). */
  quotaKey?: string;
  /** A follow-up to one participant of a finished run (see `continuationOf`). */
  continuation?: Continuation;
  /** Material every participant reads with the question (a client's retrieved text, files), by source. */
  material?: Material[];
  /**
   * Whether its client can give a person who joins the debate (`--with-me`) their turns and vote
   * (`input`): the page's chat stream and the terminal can; a client that cannot is refused.
   */
  seatsPerson?: boolean;
}

/** A run the service is producing. */
export interface StartedRun {
  /** The run's id: the `run_id` of its `metadata` event, the key of its events. */
  runId: string;
  threadId: string;
}
