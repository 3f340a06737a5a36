/**
 * The codes of every error debatt reports, to clients (HTTP answers, `error` events) and in the
 * log. A code names the problem for programs; the message says it for people.
 */
export const ERROR_CODES = [
  // Configuration and start-up.
  "config_error",
  // Prompts, stores and secrets.
  "prompt_error",
  "invalid_prompt",
  "unknown_prompt",
  "store_unavailable",
  "encryption_key_missing",
  "secret_error",
  "invalid_settings",
  "api_key_required",
  "voice_unavailable",
  // A run's request, refused before or when it starts.
  "invalid_participants",
  "unknown_model",
  "invalid_mode_config",
  "unknown_option",
  "missing_topic",
  "empty_message",
  "mode_mismatch",
  "follow_up_unsupported",
  "invalid_person_name",
  // A run that could not go on.
  "too_few_answers",
  "all_models_failed",
  "all_votes_invalid",
  "chairman_failed",
  "all_debaters_failed",
  "all_judges_failed",
  // Model calls.
  "budget_exceeded",
  "deadline_exceeded",
  "auth_failed",
  "insufficient_credits",
  "context_too_long",
  "provider_error",
  "timeout",
  "cancelled",
  "model_error",
  // The server and its runs.
  "shutting_down",
  "internal_error",
  "replay_incomplete",
  "run_interrupted",
  "event_log_unavailable",
  "write_failed",
  "database_unavailable",
  // HTTP requests.
  "not_found",
  "invalid_path",
  "method_not_allowed",
  "unsupported_media_type",
  "unsupported_encoding",
  "unsupported_charset",
  "invalid_body",
  "invalid_json",
  "invalid_content_length",
  "payload_too_large",
  "request_aborted",
  "unauthorized",
  "too_many_attempts",
  "users_unavailable",
  "user_not_found",
  "user_removed",
  "admin_disabled",
  "rate_limited",
  "page_not_built",
  "invalid_run_id",
  "invalid_thread_id",
  "invalid_conversation_id",
  "invalid_debate_id",
  "invalid_last_event_id",
  "invalid_error_event",
  "invalid_limit",
  "invalid_cursor",
  "invalid_format",
  "invalid_since",
  "invalid_export_format",
  "invalid_lang",
  "share_not_found",
  "stt_unavailable",
  "stt_failed",
  "run_not_found",
  "run_in_progress",
  "run_finished",
  "nothing_to_resume",
  "invalid_input",
  "not_awaiting_input",
  "no_checkpointer",
  "no_history",
  "conversation_not_found",
  "debate_not_found",
  "no_audio",
  "still_speaking",
  "no_mp3_encoder",
  "encoder_busy",
  // The OpenAI-compatible endpoint.
  "model_not_found",
  // The MCP server.
  "session_not_found",
  "too_many_sessions",
  "forbidden_origin",
  "forbidden_host",
  // The terminal client.
  "no_player",
] as const;

/** What a model provider's refusal or failure is called (see providers/openai.ts): codes of ERROR_CODES. */
export const PROVIDER_ERROR_CODES = [
  "auth_failed",
  "insufficient_credits",
  "model_not_found",
  "rate_limited",
  "context_too_long",
  "provider_error",
  "timeout",
] as const;
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

/** A known error code. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The refusals whose detail a reader's catalogue words itself (`reason.<key>`), from the values they carry. */
export const REASON_KEYS = [
  "unknownParticipants",
  "participantCount",
  "unknownParticipant",
  "modelNotAllowed",
  "modelCount",
  "maxRounds",
  "unknownOption",
  "noOptions",
  "personNameTaken",
  "inputWantsText",
  "inputWantsVote",
  "controlChars",
  "invalidUnicode",
  "emptyText",
  "overWordLimit",
  "notACandidate",
] as const;
export type ReasonKey = (typeof REASON_KEYS)[number];

/**
 * Why a request was refused, as values rather than words: the message says it in English for
 * programs and logs, and the page and the terminal word it in the reader's language.
 */
export interface Reason {
  key: ReasonKey;
  values: Record<string, string | number>;
}

const MARKER = Symbol.for("debatt.error");

/**
 * The base of every error debatt throws on purpose: it carries a `code` from ERROR_CODES.
 * `DebattError.isInstance` recognises one across module copies (a bundled web page, a second
 * copy of a package), where `instanceof` would not.
 */
export class DebattError extends Error {
  private readonly [MARKER] = true;

  /** Why, as values a catalogue can word (for the refusals in REASON_KEYS). */
  readonly reason?: Reason;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions & { reason?: Reason },
  ) {
    super(message, options);
    this.name = new.target.name;
    if (options?.reason) this.reason = options.reason;
  }

  /** Whether `error` is a DebattError (of any subclass). */
  static isInstance(error: unknown): error is DebattError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

/**
 * An `error` event's payload for a refused participant list: the error's code (`unknown_model`
 * for a model not allowed; a plain Error is `invalid_participants`), its message and its reason.
 */
export function refusalOf(err: unknown): { code: ErrorCode; message: string; reason?: Reason } {
  if (!DebattError.isInstance(err)) return { code: "invalid_participants", message: (err as Error).message };
  return { code: err.code, message: err.message, ...(err.reason ? { reason: err.reason } : {}) };
}

/** A configuration problem that names the variable or field at fault. */
export class ConfigError extends DebattError {
  constructor(message: string) {
    super("config_error", message);
  }
}

/**
 * A write to the database failed (the disk is full, the database is read-only or unreachable):
 * the run stops there, with what was shown and saved kept, and can be resumed from its last
 * saved step once the database can be written again.
 */
export class WriteFailedError extends DebattError {
  constructor(what: string, cause: unknown) {
    super(
      "write_failed",
      `${what} could not be written (${messageForClient(cause, "(the database server)")}); the run stops here, what was shown is kept, and it can be resumed from its last saved step once the database can be written again`,
      { cause },
    );
  }
}

/** Why a run stopped, or may not write: its conversation was deleted (by its owner, on any instance). */
export class ConversationDeletedError extends DebattError {
  constructor(conversationId: string) {
    super("cancelled", `conversation "${conversationId}" was deleted, so its run is stopped and nothing more of it is kept`);
  }
}

/**
 * What a failure says, fit for a client (a storage failure's, or any that is not debatt's own):
 * the innermost cause's first line (a query builder wraps the driver's error in one that quotes
 * the SQL and its parameters), with network addresses and URLs left out: "database or disk is
 * full", "Connection terminated unexpectedly", "connect ECONNREFUSED (the database server)".
 */
function messageForClient(cause: unknown, address = "(a server)"): string {
  let err = cause;
  for (let depth = 0; depth < 5 && err instanceof Error && err.cause !== undefined; depth++) err = err.cause;
  const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  // Drizzle's own error, without a driver's cause: its message is the query.
  if (/^Failed query:/.test(message)) return "the database refused the query";
  return withoutAddresses(message, address).slice(0, 200);
}

/** Connection-level failures of a database: it is down, restarting, or cannot be reached (PostgreSQL's SQLSTATE class 08 and 57P0x, and the socket's own). */
const UNREACHABLE_DATABASE = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|57P0[1-3]|08\w{3})$/;
/** The mark of an error that came from a database's connection (see `fromDatabase`). */
const FROM_DATABASE = Symbol.for("debatt.fromDatabase");

/** Marks `err` as the database's (set where such errors arise: the PostgreSQL pools), and returns it. */
export function fromDatabase<T>(err: T): T {
  if (err !== null && typeof err === "object" && !(FROM_DATABASE in err)) Object.defineProperty(err, FROM_DATABASE, { value: true });
  return err;
}

/**
 * Whether `err` (or what it wraps) is the database's, saying that it cannot be reached now rather
 * than that it refused the query. Only errors marked as the database's count: a provider or a
 * speech endpoint that refuses a connection is not the database.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (!(FROM_DATABASE in e)) continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHABLE_DATABASE.test(code)) return true;
    if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message)) return true;
  }
  return false;
}

/**
 * What a client is told of an error that ended a run: a DebattError as it is; a database that
 * cannot be reached as `database_unavailable` (the run can be resumed once it is back); anything
 * else as `internal_error` with its first line, without SQL or addresses.
 */
export function runFailure(err: unknown): { code: ErrorCode; message: string } {
  if (DebattError.isInstance(err)) return { code: err.code, message: err.message };
  if (isDatabaseUnreachable(err)) {
    return {
      code: "database_unavailable",
      message:
        "the database cannot be reached right now (it may be restarting), so the run stops here; what was shown is kept, and once the database is back it can be resumed from its last saved step (one that saved none is asked again)",
    };
  }
  return { code: "internal_error", message: messageForClient(err) };
}

/** A network address with its port: a dotted name or IPv4 (`db.internal:5432`, `10.0.0.5:5432`), `localhost:…`, or IPv6 (`[::1]:5432`, `::1:5432`). */
const HOST_AND_PORT = /(?:\b(?:[a-z0-9-]+\.)+[a-z0-9-]+|\blocalhost|\[[0-9a-f:.]+\]|(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}):\d{1,5}\b/gi;
/** The name a failed look-up names (`getaddrinfo ENOTFOUND db.internal`). */
const LOOKED_UP = /\b(ENOTFOUND|EAI_AGAIN)\s+\S+/g;

/**
 * `text` with its URLs, network addresses (`host:port`) and looked-up names replaced by
 * `instead`: no client learns where a server is. A time such as 10:30 stays.
 */
export function withoutAddresses(text: string, instead: string): string {
  return text
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, instead)
    .replace(LOOKED_UP, (_, code: string) => `${code} ${instead}`)
    .replace(HOST_AND_PORT, instead);
}

/**
 * A run whose budget is spent: no new model call starts, and the run ends with this error,
 * keeping what was done. Nodes let it through like a cancellation.
 */
export class BudgetExceededError extends DebattError {
  constructor(budgetUsd: number, spentUsd: number) {
    super("budget_exceeded", `the run's budget of $${budgetUsd} is spent ($${spentUsd.toFixed(4)} so far): no new model call is made; what was done is kept`);
  }
}

/** A run refused by the limits: `retryAfterS` says when a new one may start. */
export class RunLimitError extends DebattError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super("rate_limited", message);
  }
}
