import { z } from "zod";
import type { Settings } from "./config.js";
import { ConfigError } from "./errors.js";
import type { FormatSpec } from "./format-spec.js";
import { DEBATE_ORDERS, FORMATS, VOICE_PACINGS, type FormatId } from "./formats.js";
import { DEFAULT_PERSON_TIMEOUT_MS, DEFAULT_PERSON_NAME } from "./person.js";
import { personNameSchema } from "./person-schemas.js";
import { ReasoningEffortSchema } from "./reasoning.js";

/**
 * The per-run configuration (`config.configurable`, the LangGraph Studio form), whose defaults
 * are the process settings (`runConfigSchema`, `resolveRunSettings`), and the formats' options it
 * carries as `mode_config`. The process settings themselves are in `config.ts`.
 */

/**
 * The per-run options of the deliberation formats (their requests' `modeConfig`, and the options
 * written before a question such as `--debate`). They are the run configuration's `mode_config`,
 * so LangGraph Studio shows them as a form; each format reads the ones it has. Options named here
 * are the existing formats'; a format's own limits are its definition's schema (service/formats/).
 */
/** An answer's token budget, `max_response_tokens`: its range and its default (a format may have its own, `answerTokens`). */
export const RESPONSE_TOKENS = { min: 16, max: 8_000, default: 800 } as const;

/**
 * The token budget of an answer in a format (or a chat answer): the run's `max_response_tokens`
 * when it set one, else the format's own (/rank's first answers: 4,000), else 800.
 */
export function answerTokens(run: { responseTokensAsked?: number }, format: FormatId | "chat"): number {
  return run.responseTokensAsked ?? (format === "chat" ? undefined : (FORMATS[format] as FormatSpec).answerTokens) ?? RESPONSE_TOKENS.default;
}

export const FormatOptionsSchema = z
  .object({
    /** Models or participants to ask (roster keys, display names or model ids). */
    models: z.array(z.string().min(1)).optional().describe("The models to ask (roster keys, names or model ids)"),
    /** /vote's tiebreaking chairman, /rank's writer of the final answer (roster key, display name or model id). */
    chairman: z.string().min(1).optional().describe("/vote: the chairman who breaks a tie; /rank: who writes the final answer (default: the internal model)"),
    /** Per-call timeout, in ms. */
    timeoutMs: z.number().int().positive().optional().describe("Per-call timeout in ms (default: response_timeout_ms, else 120000)"),
    /** /revise: the anti-anchoring protocol in the revision prompt. */
    antiAnchoring: z.boolean().optional().describe("/revise: restate first, change only on a cited error"),
    /** /deep: most debate rounds (2–6, default 3). */
    maxRounds: z.number().optional().describe("/deep: most debate rounds, 2–6 (default 3)"),
    /** /council: a second round in which the judges review each other's verdicts. */
    debate: z.boolean().optional().describe("/council: a second round of verdicts (--debate)"),
    /** /council: how long a judge has for round 2 before its round-1 verdict stands, in ms. */
    round2TimeoutMs: z.number().int().positive().optional().describe("/council --debate: a judge's round-2 time in ms (default 90000)"),
  })
  // A format's other options are kept: each format's definition checks its own when a run starts.
  .loose();
export type FormatOptions = z.infer<typeof FormatOptionsSchema>;

/**
 * The deliberation formats' options when a run sets none: a per-call timeout of 120 s, no
 * anti-anchoring, at most 3 /deep rounds, no second /council round, 90 s for a judge's round 2,
 * /debatt's speakers one after another, /dvoice paced as its voice settings say.
 */
export const DEFAULT_OPTIONS = {
  timeoutMs: 120_000,
  antiAnchoring: false,
  maxRounds: FORMATS.deep.rounds.default,
  debate: false,
  round2TimeoutMs: 90_000,
  order: "sequential",
  voicePacing: undefined,
  withMe: false,
  personName: undefined,
} as const;
/** Extra time the whole parallel vote round gets beyond one vote's timeout. */
const VOTE_ROUND_GRACE_MS = 5_000;

/**
 * The per-run configuration (`config.configurable`), shown as a form in LangGraph Studio, with the
 * process settings as its defaults. Resolved, it is the run's settings (`RunSettings`).
 */
export function runConfigSchema(settings: RunDefaults) {
  return z.object({
    /** The conversation; set by the service (LangGraph's thread). */
    thread_id: z.string().optional().describe("The conversation (LangGraph's thread)"),
    /** This run's id: the `debate_id` and `messageId` of its events, the key of its history. */
    run_id: z.string().optional().describe("The run's id (a new one if unset)"),
    /** Seed for the shuffles; the same seed gives the same speaking orders and labels. */
    seed: z.number().int().optional().describe("Seed for the speaking orders and labels (random if unset)"),
    /** /debatt, /dvoice: within a round, each speaker in turn (seeing the round so far), or all at once (seeing earlier rounds only). */
    order: z
      .enum(DEBATE_ORDERS)
      .default("sequential")
      .describe("/debatt: sequential (each sees the round so far) or simultaneous (all answer at once, seeing earlier rounds)"),
    /** /dvoice: `paced` releases each speaker's text once the previous speaker's audio starts playing (unset: the voice settings' pacing, else paced when each answer's opening is spoken). */
    voice_pacing: z
      .enum(VOICE_PACINGS)
      .optional()
      .describe("/dvoice: paced (the text waits for the audio) or off (unset: the voice settings' pacing, else paced when each answer's opening is spoken)"),
    /** /debatt: the person who asks takes a seat, writes their own turns and votes (`--with-me` in the message). */
    with_me: z.boolean().default(false).describe("/debatt: you take a seat among the participants, write your own turns and vote"),
    /** The name the other participants know the person by (with `with_me`). */
    person_name: personNameSchema.optional().describe(`/debatt --with-me: the name the models know you by (default ${DEFAULT_PERSON_NAME})`),
    /** How long the debate waits for the person's turn or vote before it skips their seat, in ms. */
    person_timeout_ms: z
      .number()
      .int()
      .min(1_000)
      .max(3_600_000)
      .default(settings.personInputTimeoutMs ?? DEFAULT_PERSON_TIMEOUT_MS)
      .describe("/debatt --with-me: how long the debate waits for your turn or vote, in ms"),
    /** Characters of each earlier answer shown in the context chain. */
    context_chars: z.number().int().min(50).max(20_000).default(600).describe("Characters of each earlier answer shown to later speakers"),
    /** Per-call timeout for an answer, in ms; also the deliberation formats' when the run gives no `timeout_ms`. */
    response_timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .optional()
      .describe(`Per-call timeout for an answer in ms (default ${settings.responseTimeoutMs})`),
    /** Per-call timeout for a vote, in ms. */
    vote_timeout_ms: z.number().int().min(100).max(600_000).default(settings.voteTimeoutMs).describe("Per-call timeout for a vote in ms"),
    /** Timeout for the whole parallel vote round, in ms (default: the vote timeout and 5 s). */
    vote_round_timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(900_000)
      .optional()
      .describe(`Timeout of the whole vote round in ms (default vote timeout + ${VOTE_ROUND_GRACE_MS})`),
    /** Token budget per answer. */
    max_response_tokens: z
      .number()
      .int()
      .min(RESPONSE_TOKENS.min)
      .max(RESPONSE_TOKENS.max)
      .optional()
      .describe(`Token budget per answer (unset: ${RESPONSE_TOKENS.default}; /rank's first answers ${FORMATS.rank.answerTokens})`),
    /** How much every model of this run is asked to think; unset: each roster entry's, else `low` for models that reason. */
    reasoning: ReasoningEffortSchema.optional().describe(
      "How much the models think before they answer: off, low, medium or high (unset: the roster's, else low for models that reason)",
    ),
    /** Prompt texts for this run only, by registry key; they win over stored overrides. */
    prompt_overrides: z.record(z.string(), z.string()).default({}).describe("Prompt texts for this run, by registry key (e.g. debate.round.1.introduction)"),
    /** The most this run may cost, in USD: once spent, no new model call starts and the run ends with `budget_exceeded`. */
    max_cost_usd: z
      .number()
      .positive()
      .max(10_000)
      .optional()
      .describe("The most this run may cost in USD (at most DEBATT_MAX_COST_USD; unset: that, or no limit)"),
    /** The deliberation formats' options (their requests' `modeConfig`). */
    mode_config: FormatOptionsSchema.default({}).describe(
      "The deliberation formats (/vote, /revise, /deep, /council, /rank): models, chairman, timeoutMs and each format's options",
    ),
  });
}

/** The process settings a run's configuration defaults to. */
export type RunDefaults = Pick<Settings, "responseTimeoutMs" | "voteTimeoutMs"> & Partial<Pick<Settings, "personInputTimeoutMs">>;

/** The run configuration resolved: its fields, each with its default, and the deliberation formats' options. */
function runSettingsSchema(settings: RunDefaults) {
  return runConfigSchema(settings).transform((c) => ({
    threadId: c.thread_id,
    runId: c.run_id,
    seed: c.seed,
    contextChars: c.context_chars,
    responseTimeoutMs: c.response_timeout_ms ?? settings.responseTimeoutMs,
    voteTimeoutMs: c.vote_timeout_ms,
    voteRoundTimeoutMs: c.vote_round_timeout_ms ?? c.vote_timeout_ms + VOTE_ROUND_GRACE_MS,
    personTimeoutMs: c.person_timeout_ms,
    /** `max_response_tokens` as the run set it; the budget a call gets is `answerTokens(run, format)`. */
    responseTokensAsked: c.max_response_tokens,
    reasoning: c.reasoning,
    promptOverrides: c.prompt_overrides,
    /** The deliberation formats' options, each with its default. */
    options: {
      ...c.mode_config,
      // The deliberation formats' default is their own 120 s, unless the run sets its answers' timeout.
      timeoutMs: c.mode_config.timeoutMs ?? c.response_timeout_ms ?? DEFAULT_OPTIONS.timeoutMs,
      antiAnchoring: c.mode_config.antiAnchoring ?? DEFAULT_OPTIONS.antiAnchoring,
      maxRounds: c.mode_config.maxRounds ?? DEFAULT_OPTIONS.maxRounds,
      debate: c.mode_config.debate ?? DEFAULT_OPTIONS.debate,
      round2TimeoutMs: c.mode_config.round2TimeoutMs ?? DEFAULT_OPTIONS.round2TimeoutMs,
      // /debatt's order (`--order` in the message wins over it).
      order: c.order,
      // /dvoice's pacing (`--paced` in the message wins over it; unset: the voice settings').
      voicePacing: c.voice_pacing,
      // /debatt's person seat (`--with-me` in the message also sets it).
      withMe: c.with_me,
      personName: c.person_name,
    },
  }));
}

/** The settings of one run: its configuration resolved against the process settings. */
export type RunSettings = z.output<ReturnType<typeof runSettingsSchema>>;
/** A run's format options with their defaults (what a format's subgraph reads as `options`). */
export type ResolvedOptions = RunSettings["options"];
/** The per-run configuration as callers give it. */
export type RunConfig = z.input<ReturnType<typeof runConfigSchema>>;

/**
 * A resolver of runs' configurables against the process settings (the schema is built once);
 * it throws a ConfigError naming a bad field.
 */
export function runSettingsResolver(settings: RunDefaults): (configurable: unknown) => RunSettings {
  const schema = runSettingsSchema(settings);
  const keys = Object.keys(runConfigSchema(settings).shape);
  // Every node of a run resolves the same configuration, and zod's parse of it costs about 0.1 ms
  // (2–3 ms a debate): the results of the runs asked for last are kept, under the values of the
  // schema's keys (an object by its identity, so a run's own objects find its result and nothing
  // else does). A result is shared by the run's nodes: none may change it, nor the configurable.
  const recent = new Map<string, RunSettings>();
  const ids = new WeakMap<object, number>();
  let lastId = 0;
  const idOf = (value: object) => {
    let id = ids.get(value);
    if (id === undefined) ids.set(value, (id = ++lastId));
    return id;
  };
  const part = (value: unknown) => (typeof value === "object" && value !== null ? `#${idOf(value)}` : `${typeof value}:${String(value)}`);
  const parse = (configurable: unknown) => {
    const parsed = schema.safeParse(configurable ?? {});
    if (!parsed.success) throw new ConfigError(`run configuration: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  };
  return (configurable) => {
    // Only an object's keys can name a result; anything else is parsed (and refused) as it comes.
    if (typeof configurable !== "object" || configurable === null || Array.isArray(configurable)) return parse(configurable);
    const input = configurable as Record<string, unknown>;
    const key = keys.map((k) => part(input[k])).join("\u0000");
    let settings = recent.get(key);
    // Least recently used first out: a run asked for again moves to the end.
    if (settings) recent.delete(key);
    else settings = parse(input);
    recent.set(key, settings);
    if (recent.size > RECENT_RUN_SETTINGS) recent.delete(recent.keys().next().value!);
    return settings;
  };
}

/** The run configurations a resolver keeps resolved: more than the live runs of a busy process (a thousand). */
const RECENT_RUN_SETTINGS = 2048;

/** Resolves one run's configurable against the process settings; throws a ConfigError naming a bad field. */
export function resolveRunSettings(configurable: unknown, settings: RunDefaults): RunSettings {
  return runSettingsResolver(settings)(configurable);
}
