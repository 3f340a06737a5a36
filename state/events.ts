import { z } from "zod";
import { UsageReportSchema } from "./usage.js";
import { ERROR_CODES, REASON_KEYS } from "./errors.js";
import type { FormatId } from "./formats.js";
import { FORMAT_EVENTS } from "./events/by-format.gen.js";
import { stamp } from "./events/shared.js";
import { aliaserOf, wireSchemaOf } from "./events/wire.js";

export { RoundTypeSchema, type RoundType } from "./events/shared.js";

/**
 * The graph's custom events (snake_case, as emitted through `config.writer`) and their payloads.
 * The payload fields are those of ARCHITECTURE.md's event contract, each with `timestamp`.
 * Clients see the names in kebab-case (`kebabEventName`). Each format's own events are in
 * `state/events/<format>.ts`, in the generated `FORMAT_EVENTS`; those of every run here.
 */
const CORE_EVENTS = {
  text_delta: z.object({ delta: z.string(), ...stamp }),
  continue_start: z.object({
    /** The run whose participant answers. */
    run_id: z.string(),
    participant: z.object({ key: z.string(), display: z.string(), model: z.string() }),
    ...stamp,
  }),
  /** A run stopped or refused: `code` for programs, `message` in English; `reason` (added) carries a refusal's values for the reader's own words. */
  error: z.object({
    message: z.string(),
    code: z.enum(ERROR_CODES),
    reason: z.object({ key: z.enum(REASON_KEYS), values: z.record(z.string(), z.union([z.string(), z.number()])) }).optional(),
    ...stamp,
  }),
} as const;

/** Each format's events, by the format's id: `state/events/<format>.ts`, listed by scripts/format-tables.ts from `FORMATS`. */
export { FORMAT_EVENTS };

/** A union's members as one intersection (the formats' event maps, merged). */
type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (m: infer M) => void ? M : never;

/** Every event the graph sends: those of every run, then each format's (a name several formats send is one schema). */
export const EventSchemas = { ...CORE_EVENTS, ...(Object.assign({}, ...Object.values(FORMAT_EVENTS)) as Merged<(typeof FORMAT_EVENTS)[FormatId]>) };

/** snake_case event names emitted by the graph. */
export type EventName = keyof typeof EventSchemas;
/** The payload of an event, including its timestamp. */
export type EventPayload<N extends EventName> = z.infer<(typeof EventSchemas)[N]>;
/** Omit over each member of a union (plain Omit would keep only the members' common keys). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What a node passes to `emit`: the payload without the timestamp, which emit adds. */
export type EventInput<N extends EventName> = DistributiveOmit<EventPayload<N>, "timestamp">;
/** One custom stream chunk as written through `config.writer`. */
export interface GraphEvent<N extends EventName = EventName> {
  event: N;
  data: EventPayload<N>;
}

/**
 * The schema of a client event (kebab-case name) that refuses extra fields, or undefined for a
 * name neither the graph nor the stream sends. Tests hold every payload to it.
 */
export function strictEventSchema(kebabName: string): z.ZodType | undefined {
  const name = kebabName.replace(/-/g, "_");
  if (strictSchemas.has(name)) return strictSchemas.get(name);
  const schema = (EventSchemas as Record<string, z.ZodType>)[name] ?? (StreamEventSchemas as Record<string, z.ZodType>)[name];
  // As sent (with the snake_case names of camelCase fields); the union members are declared strict already.
  const wire = schema && wireSchemaOf(schema);
  const strict = wire instanceof z.ZodObject ? wire.strict() : wire;
  strictSchemas.set(name, strict);
  return strict;
}

/** The strict wire schemas, built once per event name. */
const strictSchemas = new Map<string, z.ZodType | undefined>();

const aliasers = new Map<string, ((payload: unknown) => unknown) | undefined>();

/**
 * A graph event's payload as it is sent: each camelCase field also under its snake_case name,
 * the convention of the SSE contract (`modelKey` and `model_key`); the camelCase names are
 * deprecated aliases, kept for one release (see `state/events/wire.ts`).
 */
export function onTheWire<T extends object>(event: EventName, payload: T): T {
  if (!aliasers.has(event)) aliasers.set(event, aliaserOf(EventSchemas[event]));
  const alias = aliasers.get(event);
  return alias ? (alias(payload) as T) : payload;
}

/** The events the stream itself adds around the graph's: the run's ids first, `done` last. */
export const StreamEventSchemas = {
  /** The conversation and the run, before anything else (resume with the run id). */
  metadata: z.object({ thread_id: z.string(), run_id: z.string(), ...stamp }),
  /**
   * What the run's model calls used and cost, in all, by participant and by stage (a run that
   * made no model call sends none), just before `done`. `cost_usd` adds up the costs that are
   * known; `unpriced_calls` counts the calls whose cost is not (no price for the model, or a call
   * that failed before its provider said).
   */
  usage: UsageReportSchema.extend({ budget_usd: z.number().optional(), simulated: z.boolean(), ...stamp }),
  /**
   * The run was taken up again by another worker (the server running it died, or handed it back
   * as it shut down), from its last saved step, under the same run id; `attempt` is 2 the first
   * time. The steps under way then run again: the first delta of each answer after this event
   * begins that answer's text anew (`restartKey` names an answer's deltas).
   */
  run_resumed: z.object({ attempt: z.number().int(), ...stamp }),
  /** The last event of every stream. */
  done: z.object({ ...stamp }),
} as const;

/** `debate_round_start` → `debate-round-start`, as a type. */
export type Kebab<S extends string> = S extends `${infer A}_${infer B}` ? `${A}-${Kebab<B>}` : S;

/**
 * The kebab-case names made so far. Every event of a run shares its name's one string: a name made
 * anew per event is a string of its own (a concatenation, about 175 bytes), and a live debate
 * keeps thousands of events.
 */
const kebabNames = new Map<string, string>();

/** The client-facing name of an event: `debate_round_start` → `debate-round-start`. */
export function kebabEventName<N extends string>(name: N): Kebab<N> {
  let kebab = kebabNames.get(name);
  if (kebab === undefined) kebabNames.set(name, (kebab = name.replace(/_/g, "-")));
  return kebab as Kebab<N>;
}

type AllSchemas = typeof EventSchemas & typeof StreamEventSchemas;

/** An event as clients receive it: its kebab-case name and its payload, typed by the name. */
export type ClientEvent = { [N in keyof AllSchemas & string]: { event: Kebab<N>; data: z.infer<AllSchemas[N]> } }[keyof AllSchemas & string];

/** A client event's kebab-case name. */
export type ClientEventName = ClientEvent["event"];

/** The payload of the client event `name`. */
export type ClientPayload<N extends ClientEventName> = Extract<ClientEvent, { event: N }>["data"];
