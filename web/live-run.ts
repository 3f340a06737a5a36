import type { ClientEvent } from "../state/events.js";
import { restartKey } from "../state/events/restart.js";
import { reduce, type ArenaState } from "./arena-state.js";

/** How an arena becomes the next one with an event (pure: a state update may run it more than once). */
export type ArenaStep = (arena: ArenaState) => ArenaState;

/**
 * Follows one stream of a run: takes its events in order and gives, for each, how its arena
 * changes. When the run is taken up again by another server (`run-resumed`), the steps under way
 * run again from their start: the first delta of each answer after it begins that answer anew,
 * so its text from before is dropped (the arena is built again, from the one the stream began
 * with, from the stream's events without it) instead of being written twice.
 */
export function liveRun(): (e: ClientEvent) => ArenaStep {
  const events: ClientEvent[] = [];
  /** The arena the stream began with. */
  let base: ArenaState | undefined;
  /** Where the latest take-up is among the events, and the answers begun anew since. */
  let resumedAt = -1;
  const restarted = new Set<string>();
  return (e) => {
    if (e.event === "run-resumed") {
      resumedAt = events.length;
      restarted.clear();
    }
    events.push(e);
    const key = resumedAt >= 0 ? restartKey(e) : undefined;
    if (key === undefined || restarted.has(key))
      return (arena) => {
        base ??= arena;
        return reduce(arena, e);
      };
    restarted.add(key);
    const kept = events.filter((x, i) => i >= resumedAt || !restarted.has(restartKey(x) ?? ""));
    return (arena) => kept.reduce(reduce, base ?? arena);
  };
}
