import { readFileSync } from "node:fs";
import { z } from "zod";
import { defaultRoster, RosterSchema, type Participant } from "./participants.js";

/**
 * Every default of the debate lives here, once. Environment variables override them per process
 * (`loadSettings`), and the per-run configuration (`RunConfigSchema`, the LangGraph Studio form)
 * overrides them per run (`resolveRunSettings`).
 */
export const DEFAULTS = {
  /** Per-call timeout for a participant's answer (seed: RESPONSE_TIMEOUT_SECONDS = 90). */
  responseTimeoutMs: 90_000,
  /** Per-call timeout of the seed formats (/vote …; seed 001: 120 s). */
  deliberationTimeoutMs: 120_000,
  /** /council --debate: a judge's round-2 time before its round-1 verdict stands (seed 002: COUNCIL_R2_TIMEOUT 90 s). */
  councilRound2TimeoutMs: 90_000,
  /** Per-call timeout for a vote (seed: VOTE_TIMEOUT_SECONDS = 60). */
  voteTimeoutMs: 60_000,
  /** Extra time the whole parallel vote round gets beyond one vote's timeout. */
  voteRoundGraceMs: 5_000,
  /** Token budget per answer (seed: MAX_RESPONSE_TOKENS = 800). */
  maxResponseTokens: 800,
  /** Characters of each earlier answer shown in the context chain (seed §11: 600). */
  contextChars: 600,
  /** Retries of a failed model call inside the OpenAI client. */
  maxRetries: 1,
  /** Time before the first token of a simulated answer. */
  simulatedLatencyMs: 350,
  /** Pause between simulated stream chunks. */
  simulatedChunkDelayMs: 25,
  /** Tokens per simulated stream chunk. */
  simulatedChunkTokens: 4,
  /** How long emitted text deltas may be coalesced (the first delta is never delayed). */
  deltaCoalesceMs: 40,
  /** Internal model of OneSeek, the supervisor, convergence and synthesis. */
  oneseekModel: "openai/gpt-4.1-mini",
  /** Tavily: results per query, characters per result, timeout (seed §3.1). */
  searchMaxResults: 3,
  searchMaxChars: 300,
  searchTimeoutMs: 15_000,
  /** Most web-search queries OneSeek may plan per turn (seed §11: 0–4). */
  searchMaxQueries: 4,
  /** HTTP port of the chat service. */
  port: 3000,
  /** Interval of SSE keep-alive comments while a stream waits. */
  sseKeepAliveMs: 15_000,
  /** After SIGTERM, how long running debates may take to finish before they are cancelled. */
  shutdownGraceMs: 60_000,
  /** How long a run goes on after its last reader left, waiting for the client to reconnect. */
  resumeGraceMs: 30_000,
  /** How long a finished run's events stay available for replay. */
  eventLogTtlMs: 3_600_000,
  /** Most bytes of run events kept in this process's memory (the oldest finished runs go first). */
  eventLogMaxBytes: 256 * 1024 * 1024,
  /** Longest accepted chat message, in characters. */
  maxMessageChars: 4_000,
  /** Admin writes allowed per token and minute. */
  adminWritesPerMinute: 10,
  /** Sentences synthesised at once per /dvoice debate. */
  ttsParallelism: 3,
} as const;

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be positive`);

/** Process-wide settings read from the environment. */
export interface Settings {
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  roster: Participant[];
  oneseekModel: string;
  tavilyApiKey?: string;
  tavilyBaseUrl?: string;
  responseTimeoutMs: number;
  voteTimeoutMs: number;
  maxRetries: number;
  simulatedLatencyMs: number;
  simulatedChunkDelayMs: number;
  simulatedChunkTokens: number;
  /** Redis for prompt overrides; absent → in-memory store. */
  redisUrl?: string;
  /** Key and base URL of an OpenAI-compatible speech API; no key → the local espeak-ng voice. */
  ttsApiKey?: string;
  ttsBaseUrl?: string;
  /** Sentences synthesised at once per debate (bounded by the speech provider's rate limits). */
  ttsParallelism: number;
  /** 32-byte key (hex or base64) sealing secrets at rest, e.g. the voice settings' api_key. */
  settingsEncryptionKey?: string;
  /** Where files are kept (the audio of /dvoice debates for export). */
  dataDir: string;
  /** Bearer token of the admin API; absent → admin routes answer 503. */
  adminToken?: string;
  port: number;
  sseKeepAliveMs: number;
  shutdownGraceMs: number;
  /** PostgreSQL for checkpoints (and, later, the history); absent → an SQLite file in `dataDir`. */
  databaseUrl?: string;
  /** See DEFAULTS.resumeGraceMs. */
  resumeGraceMs: number;
  /** See DEFAULTS.eventLogTtlMs. */
  eventLogTtlMs: number;
  /** Longest a `GET …/events` connection is kept open before the server ends it (0: no limit); EventSource reconnects. */
  sseMaxConnectionMs: number;
}

const EnvSchema = z.object({
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url("OPENAI_BASE_URL must be a URL").optional(),
  ONESEEK_MODEL: z.string().min(1).default(DEFAULTS.oneseekModel),
  DEBATE_PARTICIPANTS: z.string().optional(),
  TAVILY_API_KEY: z.string().optional(),
  TAVILY_BASE_URL: z.url("TAVILY_BASE_URL must be a URL").optional(),
  DEBATE_RESPONSE_TIMEOUT_MS: positiveInt("DEBATE_RESPONSE_TIMEOUT_MS").default(DEFAULTS.responseTimeoutMs),
  DEBATE_VOTE_TIMEOUT_MS: positiveInt("DEBATE_VOTE_TIMEOUT_MS").default(DEFAULTS.voteTimeoutMs),
  DEBATE_MAX_RETRIES: z.coerce.number().int().min(0).max(6).default(DEFAULTS.maxRetries),
  SIMULATED_LATENCY_MS: z.coerce.number().int().min(0).default(DEFAULTS.simulatedLatencyMs),
  SIMULATED_CHUNK_DELAY_MS: z.coerce.number().int().min(0).default(DEFAULTS.simulatedChunkDelayMs),
  SIMULATED_CHUNK_TOKENS: z.coerce.number().int().min(1).default(DEFAULTS.simulatedChunkTokens),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: "REDIS_URL must be a redis:// or rediss:// URL" })
    .optional(),
  TTS_API_KEY: z.string().optional(),
  TTS_BASE_URL: z.url({ protocol: /^https?$/, error: "TTS_BASE_URL must be an http(s) URL" }).optional(),
  TTS_PARALLELISM: z.coerce.number({ error: "TTS_PARALLELISM must be a number" }).int().min(1, "TTS_PARALLELISM must be 1–16").max(16, "TTS_PARALLELISM must be 1–16").default(DEFAULTS.ttsParallelism),
  SETTINGS_ENCRYPTION_KEY: z
    .string()
    .refine(
      (k) => /^[0-9a-f]{64}$/i.test(k) || Buffer.from(k, "base64").length === 32,
      "SETTINGS_ENCRYPTION_KEY must be 32 bytes: 64 hex characters or base64 (e.g. openssl rand -hex 32)",
    )
    .optional(),
  DEBATT_DATA_DIR: z.string().min(1).default("data"),
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  PORT: z.coerce.number({ error: "PORT must be a number" }).int().min(0).max(65_535).default(DEFAULTS.port),
  SSE_KEEPALIVE_MS: positiveInt("SSE_KEEPALIVE_MS").default(DEFAULTS.sseKeepAliveMs),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(DEFAULTS.shutdownGraceMs),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)")
    .optional(),
  RESUME_GRACE_MS: z.coerce.number({ error: "RESUME_GRACE_MS must be a number" }).int().min(0).default(DEFAULTS.resumeGraceMs),
  EVENT_LOG_TTL_MS: positiveInt("EVENT_LOG_TTL_MS").default(DEFAULTS.eventLogTtlMs),
  SSE_MAX_CONNECTION_MS: z.coerce.number({ error: "SSE_MAX_CONNECTION_MS must be a number" }).int().min(0).default(0),
});

/** A configuration problem that names the variable at fault. */
export class ConfigError extends Error {
  readonly code = "config_error";
}

/** Reads `DEBATE_PARTICIPANTS`: inline JSON, or the path of a JSON file. */
function parseRoster(raw: string | undefined, oneseekModel: string): Participant[] {
  if (!raw || raw.trim() === "") return defaultRoster(oneseekModel);
  const text = raw.trim().startsWith("[") ? raw : readRosterFile(raw);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`DEBATE_PARTICIPANTS is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = RosterSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(`DEBATE_PARTICIPANTS: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

function readRosterFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`DEBATE_PARTICIPANTS: cannot read file "${path}": ${(err as Error).message}`);
  }
}

/** Reads and validates the environment; throws a ConfigError naming the variable at fault. */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(z.prettifyError(parsed.error));
  const e = parsed.data;
  return {
    openaiApiKey: e.OPENAI_API_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    roster: parseRoster(e.DEBATE_PARTICIPANTS, e.ONESEEK_MODEL),
    oneseekModel: e.ONESEEK_MODEL,
    tavilyApiKey: e.TAVILY_API_KEY,
    tavilyBaseUrl: e.TAVILY_BASE_URL,
    responseTimeoutMs: e.DEBATE_RESPONSE_TIMEOUT_MS,
    voteTimeoutMs: e.DEBATE_VOTE_TIMEOUT_MS,
    maxRetries: e.DEBATE_MAX_RETRIES,
    simulatedLatencyMs: e.SIMULATED_LATENCY_MS,
    simulatedChunkDelayMs: e.SIMULATED_CHUNK_DELAY_MS,
    simulatedChunkTokens: e.SIMULATED_CHUNK_TOKENS,
    redisUrl: e.REDIS_URL,
    ttsApiKey: e.TTS_API_KEY,
    ttsBaseUrl: e.TTS_BASE_URL,
    settingsEncryptionKey: e.SETTINGS_ENCRYPTION_KEY,
    ttsParallelism: e.TTS_PARALLELISM,
    dataDir: e.DEBATT_DATA_DIR,
    adminToken: e.ADMIN_TOKEN,
    port: e.PORT,
    sseKeepAliveMs: e.SSE_KEEPALIVE_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    databaseUrl: e.DATABASE_URL,
    resumeGraceMs: e.RESUME_GRACE_MS,
    eventLogTtlMs: e.EVENT_LOG_TTL_MS,
    sseMaxConnectionMs: e.SSE_MAX_CONNECTION_MS,
  };
}

/**
 * The per-run configuration (`config.configurable`), shown as a form in LangGraph Studio.
 * Every field is optional: an absent one falls back to the process settings and DEFAULTS.
 */
export const RunConfigSchema = z.object({
  /** Seed for the per-round shuffles; the same seed gives the same speaking orders. */
  seed: z.number().int().optional().describe("Seed for the per-round speaking order (random if unset)"),
  /** Characters of each earlier answer in the context chain. */
  context_chars: z
    .number().int().min(50).max(20_000).optional()
    .describe(`Characters of each earlier answer shown to later speakers (default ${DEFAULTS.contextChars})`),
  /** Per-call timeout for an answer, in ms. */
  response_timeout_ms: z
    .number().int().min(100).max(600_000).optional()
    .describe("Per-call timeout for an answer in ms (default DEBATE_RESPONSE_TIMEOUT_MS or 90000)"),
  /** Per-call timeout for a vote, in ms. */
  vote_timeout_ms: z
    .number().int().min(100).max(600_000).optional()
    .describe("Per-call timeout for a vote in ms (default DEBATE_VOTE_TIMEOUT_MS or 60000)"),
  /** Timeout for the whole parallel vote round, in ms. */
  vote_round_timeout_ms: z
    .number().int().min(100).max(900_000).optional()
    .describe(`Timeout of the whole vote round in ms (default vote timeout + ${DEFAULTS.voteRoundGraceMs})`),
  /** Token budget per answer. */
  max_response_tokens: z
    .number().int().min(16).max(8_000).optional()
    .describe(`Token budget per answer (default ${DEFAULTS.maxResponseTokens})`),
  /** Prompt texts for this run only, by registry key; they win over stored overrides. */
  prompt_overrides: z
    .record(z.string(), z.string())
    .optional()
    .describe("Prompt texts for this run, by registry key (e.g. debate.round.1.introduction)"),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

/** Concrete settings of one run: the run config resolved against the process settings. */
export interface RunSettings {
  seed?: number;
  contextChars: number;
  responseTimeoutMs: number;
  voteTimeoutMs: number;
  voteRoundTimeoutMs: number;
  maxResponseTokens: number;
  promptOverrides: Record<string, string>;
}

/** Resolves a run's configurable against the process settings; throws naming a bad field. */
export function resolveRunSettings(configurable: unknown, settings: Settings): RunSettings {
  const parsed = RunConfigSchema.safeParse(configurable ?? {});
  if (!parsed.success) throw new ConfigError(`run configuration: ${z.prettifyError(parsed.error)}`);
  const c = parsed.data;
  const voteTimeoutMs = c.vote_timeout_ms ?? settings.voteTimeoutMs;
  return {
    seed: c.seed,
    contextChars: c.context_chars ?? DEFAULTS.contextChars,
    responseTimeoutMs: c.response_timeout_ms ?? settings.responseTimeoutMs,
    voteTimeoutMs,
    voteRoundTimeoutMs: c.vote_round_timeout_ms ?? voteTimeoutMs + DEFAULTS.voteRoundGraceMs,
    maxResponseTokens: c.max_response_tokens ?? DEFAULTS.maxResponseTokens,
    promptOverrides: c.prompt_overrides ?? {},
  };
}
