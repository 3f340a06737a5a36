import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { z } from "zod";
import { checkCorsOrigins, corsOriginsOf } from "./cors-origins.js";
import { ConfigError } from "./errors.js";
import { defaultRoster, RosterSchema, type ModelAllowlist, type Participant } from "./participants.js";
import { PriceTableSchema } from "./usage.js";
import { DEFAULT_PERSON_TIMEOUT_MS } from "./person.js";

/**
 * The configuration, in two levels, each one zod schema with its defaults inside:
 * - the process settings, read from the environment (`loadSettings`);
 * - the per-run configuration (`config.configurable`, the LangGraph Studio form), whose defaults
 *   are the process settings (`runConfigSchema`, `resolveRunSettings`), in `run-config.ts`.
 */

const number = (name: string) => z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`);
const positiveInt = (name: string) => number(name).positive(`${name} must be positive`);
const url = (name: string, protocol: RegExp = /^https?$/) => z.url({ protocol, error: `${name} must be a URL` });

/** The environment variables and their defaults. */
const EnvSchema = z.object({
  /** Key of the OpenAI-compatible endpoint; absent → participants are simulated offline. */
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: url("OPENAI_BASE_URL").optional(),
  /** Internal model of OneSeek, the supervisor, convergence, synthesis and the chairman. */
  ONESEEK_MODEL: z.string().min(1).default("openai/gpt-4.1-mini"),
  /** The internal model's own endpoint and key; absent → OPENAI_BASE_URL and OPENAI_API_KEY. */
  ONESEEK_BASE_URL: url("ONESEEK_BASE_URL").optional(),
  ONESEEK_API_KEY: z.string().optional(),
  /** Tried, at the internal model's endpoint, when the synthesis or the chairman fails, before the computed fallback text. */
  FALLBACK_MODEL: z.string().min(1).optional(),
  /** The roster: inline JSON or the path of a JSON file; absent → the 8 default participants. */
  DEBATE_PARTICIPANTS: z.string().optional(),
  /** The price table: inline JSON or the path of a JSON file of USD per million tokens by model id (`{"openai/gpt-4o": {"input": 2.5, "output": 10}}`). */
  MODEL_PRICES: z.string().optional(),
  TAVILY_API_KEY: z.string().optional(),
  TAVILY_BASE_URL: url("TAVILY_BASE_URL").optional(),
  /** Per-call timeout for a participant's answer (90 s). */
  DEBATE_RESPONSE_TIMEOUT_MS: positiveInt("DEBATE_RESPONSE_TIMEOUT_MS").default(90_000),
  /** Per-call timeout for a vote (60 s). */
  DEBATE_VOTE_TIMEOUT_MS: positiveInt("DEBATE_VOTE_TIMEOUT_MS").default(60_000),
  /** Retries of a failed model call inside the OpenAI client. */
  DEBATE_MAX_RETRIES: number("DEBATE_MAX_RETRIES").min(0).max(6).default(1),
  /** The simulated provider: time before the first token, pause between chunks, tokens per chunk. */
  SIMULATED_LATENCY_MS: number("SIMULATED_LATENCY_MS").min(0).default(350),
  SIMULATED_CHUNK_DELAY_MS: number("SIMULATED_CHUNK_DELAY_MS").min(0).default(25),
  SIMULATED_CHUNK_TOKENS: number("SIMULATED_CHUNK_TOKENS").min(1).default(4),
  /** The simulated provider answers the evaluation's task questions right with this probability (0–1); unset, as any question. */
  SIMULATED_ACCURACY: z.coerce
    .number({ error: "SIMULATED_ACCURACY must be a number from 0 to 1" })
    .min(0, "SIMULATED_ACCURACY must be from 0 to 1")
    .max(1, "SIMULATED_ACCURACY must be from 0 to 1")
    .optional(),
  /** The simulated debaters write rounds 1–3 to these lengths in words ("300,500,500"); unset, shorter and varied. */
  SIMULATED_ROUND_WORDS: z
    .string()
    .regex(/^\d{1,4},\d{1,4},\d{1,4}$/, "SIMULATED_ROUND_WORDS must be three word counts, e.g. 300,500,500")
    .transform((v) => v.split(",").map(Number))
    .optional(),
  /** Redis for prompt overrides, voice settings, the speech cache and the shared event log. */
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "REDIS_URL must be a redis:// or rediss:// URL" }).optional(),
  TTS_API_KEY: z.string().optional(),
  /** Speech-to-text for the page's microphone: an OpenAI-compatible `/audio/transcriptions` endpoint. */
  STT_API_KEY: z.string().optional(),
  STT_BASE_URL: z.url({ protocol: /^https?$/, error: "STT_BASE_URL must be an http(s) URL" }).default("https://api.openai.com/v1"),
  STT_MODEL: z.string().min(1).default("whisper-1"),
  TTS_BASE_URL: z.url({ protocol: /^https?$/, error: "TTS_BASE_URL must be an http(s) URL" }).optional(),
  /** Sentences synthesised at once per /dvoice debate (bounded by the speech provider's rate limits). */
  TTS_PARALLELISM: z.coerce
    .number({ error: "TTS_PARALLELISM must be a number" })
    .int()
    .min(1, "TTS_PARALLELISM must be 1–16")
    .max(16, "TTS_PARALLELISM must be 1–16")
    .default(3),
  /** 32 bytes (64 hex characters or base64) sealing secrets at rest, e.g. the voice settings' api_key. */
  SETTINGS_ENCRYPTION_KEY: z
    .string()
    .refine(
      (k) => /^[0-9a-f]{64}$/i.test(k) || Buffer.from(k, "base64").length === 32,
      "SETTINGS_ENCRYPTION_KEY must be 32 bytes: 64 hex characters or base64 (e.g. openssl rand -hex 32)",
    )
    .optional(),
  /** Where files are kept: the SQLite databases and the /dvoice audio. */
  DEBATT_DATA_DIR: z.string().min(1).default("data"),
  /** Bearer token of the admin API; absent → the admin routes answer 503. */
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  PORT: z.coerce.number({ error: "PORT must be a number" }).int().min(0).max(65_535).default(3000),
  /** The address to listen on: loopback by default, so nothing on the network reaches the server. */
  HOST: z.string().trim().min(1, "HOST must not be empty").default("127.0.0.1"),
  /** With AUTH=none: host names besides the loopback ones that requests may address (a comma list), e.g. behind a local proxy. */
  ALLOWED_HOSTS: z.string().optional(),
  /**
   * The origins of web pages that may call `/v1` and `/mcp` from a browser (CORS): exact origins
   * (`https://chat.example.org`, `http://localhost:8080`) separated by commas, or `*` for any page
   * (only with AUTH=tokens). Unset, none: a browser keeps every answer from a page of another origin.
   */
  CORS_ALLOWED_ORIGINS: z.string().superRefine(checkCorsOrigins).optional(),
  /**
   * The reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed: `loopback`,
   * a number of hops, or addresses and CIDR ranges (a comma list). Unset, none: the client is the
   * connection's own address.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .refine(isTrustProxy, "TRUST_PROXY must be loopback, a number of hops, or proxy addresses and CIDR ranges separated by commas (e.g. 10.0.0.0/8)")
    .optional(),
  /** Who may use the API: anyone who reaches it (`none`, loopback only) or users with tokens. */
  AUTH: z.enum(["none", "tokens"], { error: "AUTH must be none or tokens" }).optional(),
  /** Model ids a request may name besides the roster's: a comma list, or `*` for any (none by default). */
  ALLOWED_MODELS: z.string().optional(),
  /** Runs one user (or, with AUTH=none, one client address) may start in a minute, and at once. */
  RUNS_PER_MINUTE: positiveInt("RUNS_PER_MINUTE").default(30),
  MAX_CONCURRENT_RUNS: positiveInt("MAX_CONCURRENT_RUNS").default(10),
  MAX_OPEN_STREAMS: positiveInt("MAX_OPEN_STREAMS").default(20),
  /** Interval of SSE keep-alive comments while a stream waits. */
  SSE_KEEPALIVE_MS: positiveInt("SSE_KEEPALIVE_MS").default(15_000),
  /** After SIGTERM, how long running runs may take to finish before they are cancelled. */
  SHUTDOWN_GRACE_MS: number("SHUTDOWN_GRACE_MS").min(0).default(60_000),
  /** PostgreSQL for the checkpoints and the history; absent → SQLite files in the data directory. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)")
    .optional(),
  /** How long a run goes on after its last reader left, waiting for the client to reconnect. */
  RESUME_GRACE_MS: number("RESUME_GRACE_MS").min(0).default(30_000),
  RUN_LOCK_MS: number("RUN_LOCK_MS").min(500).max(600_000).default(10_000),
  RUN_WORKERS: number("RUN_WORKERS").min(0).max(10_000).default(200),
  /** How long a debate waits for the person's turn or vote (`--with-me`) before it skips their seat. */
  PERSON_INPUT_TIMEOUT_MS: number("PERSON_INPUT_TIMEOUT_MS").min(1_000).max(3_600_000).default(DEFAULT_PERSON_TIMEOUT_MS),
  /** How long a finished run's events stay available for replay. */
  EVENT_LOG_TTL_MS: positiveInt("EVENT_LOG_TTL_MS").default(3_600_000),
  /** Longest a `GET …/events` connection is kept open before the server ends it (0: no limit); EventSource reconnects. */
  SSE_MAX_CONNECTION_MS: number("SSE_MAX_CONNECTION_MS").min(0).default(0),
  /** The longest a run may take, in ms (the time it waits for a person who joined it not counted); 0: no deadline. */
  RUN_DEADLINE_MS: number("RUN_DEADLINE_MS").min(0).default(1_800_000),
  /** The most one run may cost, in USD (a run's `max_cost_usd` may lower it, never raise it); absent → no limit. */
  DEBATT_MAX_COST_USD: z.coerce
    .number({ error: "DEBATT_MAX_COST_USD must be a number of US dollars, e.g. 0.50" })
    .positive("DEBATT_MAX_COST_USD must be more than 0")
    .optional(),
  /** How the OpenAI-compatible endpoint sends a deliberation's progress: `reasoning_content`, a `<think>` block in the content, or not at all. */
  DEBATT_OPENAI_PROGRESS: z.enum(["reasoning", "think", "none"], { error: "DEBATT_OPENAI_PROGRESS must be reasoning, think or none" }).default("reasoning"),
  DEBATT_OPENAI_COST_LINE: z
    .enum(["reasoning", "content", "none"], { error: "DEBATT_OPENAI_COST_LINE must be reasoning, content or none" })
    .default("reasoning"),
});

/** Whether `value` is what express's `trust proxy` takes from TRUST_PROXY: a number of hops, or a list of names (loopback, linklocal, uniquelocal) and IP addresses with an optional prefix length. */
function isTrustProxy(value: string): boolean {
  if (/^\d{1,2}$/.test(value)) return true;
  return value.split(",").every((entry) => {
    const [address, prefix, ...rest] = entry.trim().split("/");
    if (rest.length > 0) return false;
    if (["loopback", "linklocal", "uniquelocal"].includes(address) && prefix === undefined) return true;
    const family = isIP(address);
    if (family === 0) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  });
}

/** Whether a HOST is a loopback address, reachable only from this machine. */
export function isLoopback(host: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1" || host === "[::1]" || host.toLowerCase() === "localhost";
}

/** The process settings, derived from the environment. */
const SettingsSchema = EnvSchema.superRefine((e, ctx) => {
  if (e.AUTH === "none" && !isLoopback(e.HOST)) {
    ctx.addIssue({
      code: "custom",
      path: ["AUTH"],
      message: `AUTH=none is refused on HOST=${e.HOST}: anyone on the network could start paid runs and read every conversation. Use AUTH=tokens (add users with npm run users -- add <name>), or a loopback HOST such as 127.0.0.1`,
    });
  }
  // Without users, any page a browser of this machine opens would act as its one user.
  if (corsOriginsOf(e.CORS_ALLOWED_ORIGINS) === "*" && (e.AUTH ?? (isLoopback(e.HOST) ? "none" : "tokens")) === "none") {
    ctx.addIssue({
      code: "custom",
      path: ["CORS_ALLOWED_ORIGINS"],
      message:
        "CORS_ALLOWED_ORIGINS=* is refused with AUTH=none: every web page the machine's browser opens could start paid runs as this server's one user. List the origins of the clients you trust (e.g. http://localhost:8080), or use AUTH=tokens",
    });
  }
}).transform((e) => ({
  openaiApiKey: e.OPENAI_API_KEY,
  openaiBaseUrl: e.OPENAI_BASE_URL,
  roster: parseRoster(e.DEBATE_PARTICIPANTS, e.ONESEEK_MODEL),
  prices: e.MODEL_PRICES ? readJsonSetting("MODEL_PRICES", e.MODEL_PRICES, PriceTableSchema) : {},
  oneseekModel: e.ONESEEK_MODEL,
  oneseekBaseUrl: e.ONESEEK_BASE_URL,
  oneseekApiKey: e.ONESEEK_API_KEY,
  fallbackModel: e.FALLBACK_MODEL,
  allowedModels: allowlistOf(e.ALLOWED_MODELS),
  /** Express's `trust proxy`: false, a number of hops, or the proxies' addresses. */
  trustProxy: e.TRUST_PROXY === undefined ? false : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY.split(",").map((a) => a.trim()),
  allowedHosts: (e.ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean),
  /** The origins whose pages may call `/v1` and `/mcp` from a browser (CORS), or `*` for any; none by default. */
  corsAllowedOrigins: corsOriginsOf(e.CORS_ALLOWED_ORIGINS),
  runsPerMinute: e.RUNS_PER_MINUTE,
  maxConcurrentRuns: e.MAX_CONCURRENT_RUNS,
  maxOpenStreams: e.MAX_OPEN_STREAMS,
  tavilyApiKey: e.TAVILY_API_KEY,
  tavilyBaseUrl: e.TAVILY_BASE_URL,
  responseTimeoutMs: e.DEBATE_RESPONSE_TIMEOUT_MS,
  voteTimeoutMs: e.DEBATE_VOTE_TIMEOUT_MS,
  maxRetries: e.DEBATE_MAX_RETRIES,
  simulatedLatencyMs: e.SIMULATED_LATENCY_MS,
  simulatedChunkDelayMs: e.SIMULATED_CHUNK_DELAY_MS,
  simulatedChunkTokens: e.SIMULATED_CHUNK_TOKENS,
  simulatedAccuracy: e.SIMULATED_ACCURACY,
  simulatedRoundWords: e.SIMULATED_ROUND_WORDS,
  redisUrl: e.REDIS_URL,
  ttsApiKey: e.TTS_API_KEY,
  sttApiKey: e.STT_API_KEY,
  sttBaseUrl: e.STT_BASE_URL,
  sttModel: e.STT_MODEL,
  ttsBaseUrl: e.TTS_BASE_URL,
  ttsParallelism: e.TTS_PARALLELISM,
  settingsEncryptionKey: e.SETTINGS_ENCRYPTION_KEY,
  dataDir: e.DEBATT_DATA_DIR,
  adminToken: e.ADMIN_TOKEN,
  port: e.PORT,
  host: e.HOST,
  /** `none` by default only on a loopback HOST; elsewhere `tokens`. */
  auth: e.AUTH ?? (isLoopback(e.HOST) ? "none" : "tokens"),
  sseKeepAliveMs: e.SSE_KEEPALIVE_MS,
  shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  databaseUrl: e.DATABASE_URL,
  resumeGraceMs: e.RESUME_GRACE_MS,
  runLockMs: e.RUN_LOCK_MS,
  runWorkers: e.RUN_WORKERS,
  personInputTimeoutMs: e.PERSON_INPUT_TIMEOUT_MS,
  eventLogTtlMs: e.EVENT_LOG_TTL_MS,
  sseMaxConnectionMs: e.SSE_MAX_CONNECTION_MS,
  openaiProgress: e.DEBATT_OPENAI_PROGRESS,
  openaiCostLine: e.DEBATT_OPENAI_COST_LINE,
  maxCostUsd: e.DEBATT_MAX_COST_USD,
  runDeadlineMs: e.RUN_DEADLINE_MS,
}));

/**
 * Process-wide settings read from the environment (see EnvSchema for each one's variable and
 * default), with `providerKeys`: the keys the roster's `apiKeyEnv` names, by variable.
 */
export type Settings = z.output<typeof SettingsSchema> & { providerKeys: Record<string, string> };

/** Reads `ALLOWED_MODELS`: `*`, or model ids separated by commas. */
function allowlistOf(raw: string | undefined): ModelAllowlist {
  if (raw?.trim() === "*") return "*";
  return (raw ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
}

/** Reads `DEBATE_PARTICIPANTS`: inline JSON, or the path of a JSON file. */
function parseRoster(raw: string | undefined, oneseekModel: string): Participant[] {
  if (!raw || raw.trim() === "") return defaultRoster(oneseekModel);
  return readJsonSetting("DEBATE_PARTICIPANTS", raw, RosterSchema);
}

/** A setting that holds inline JSON (an array or an object) or the path of a JSON file, validated by `schema`. */
function readJsonSetting<T>(name: string, raw: string, schema: z.ZodType<T>): T {
  let text = raw;
  if (!/^\s*[[{]/.test(raw)) {
    try {
      text = readFileSync(raw, "utf8");
    } catch (err) {
      throw new ConfigError(`${name}: cannot read file "${raw}": ${(err as Error).message}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${name}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads and validates the environment; throws a ConfigError naming the variable at fault. */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = SettingsSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(z.prettifyError(parsed.error));
  return { ...parsed.data, providerKeys: providerKeysOf(parsed.data, cleaned) };
}

/**
 * The keys the roster names by variable (`apiKeyEnv`), read from the environment. With any key
 * at all the models are real, so every participant and the internal model must then have one:
 * its own, or OPENAI_API_KEY. A missing one is named, with who needs it.
 */
function providerKeysOf(settings: z.output<typeof SettingsSchema>, env: Record<string, string | undefined>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const p of settings.roster) {
    if (!p.apiKeyEnv) continue;
    const key = env[p.apiKeyEnv];
    if (!key) throw new ConfigError(`DEBATE_PARTICIPANTS: ${p.key}'s key is read from ${p.apiKeyEnv} (its apiKeyEnv), which is not set`);
    keys[p.apiKeyEnv] = key;
  }
  const anyKey = settings.openaiApiKey || settings.oneseekApiKey || Object.keys(keys).length > 0;
  if (anyKey && !settings.openaiApiKey) {
    const keyless = settings.roster.filter((p) => !p.apiKeyEnv).map((p) => p.key);
    if (keyless.length) throw new ConfigError(`OPENAI_API_KEY is not set, and ${keyless.join(", ")} name no apiKeyEnv of their own: they would have no key`);
    if (!settings.oneseekApiKey)
      throw new ConfigError("OPENAI_API_KEY is not set, and neither is ONESEEK_API_KEY: the internal model (synthesis, chairman, titles) would have no key");
    const adHoc = settings.allowedModels === "*" || settings.allowedModels.length > 0;
    if (adHoc) throw new ConfigError("ALLOWED_MODELS lets a request name other models, which are called at OPENAI_BASE_URL: set OPENAI_API_KEY for them");
  }
  return keys;
}
