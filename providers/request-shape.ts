import type { ReasoningEffort } from "../state/reasoning.js";

/**
 * How one endpoint wants a model's request written, learnt from its refusals. Endpoints differ in
 * the parameters they take: OpenAI's API refuses `max_tokens` for its reasoning models ("Use
 * 'max_completion_tokens' instead"), Ollama and DeepSeek take `max_tokens` and silently ignore
 * `max_completion_tokens` (the cap would be lost), Mistral answers `stream_options` with 422 "Extra
 * inputs are not permitted", OpenAI answers `reasoning_effort` for a model without reasoning with
 * "Unrecognized request argument supplied". The first such refusal of an endpoint and model is read
 * here, the call is sent again written as the endpoint wants, and the next calls are written so
 * from the start: the person never sees the refusal.
 */

/** The field that carries an answer's token budget. */
export type BudgetField = "max_tokens" | "max_completion_tokens";

/** The optional fields a request may carry, which an endpoint may refuse; the budget's field is swapped, the others left out. */
export const OPTIONAL_FIELDS = ["max_tokens", "max_completion_tokens", "stream_options", "reasoning", "reasoning_effort", "temperature"] as const;
export type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/** What is known of one endpoint and model: the budget's field, the fields it refused, and whether it was seen reasoning. */
interface Shape {
  budget: BudgetField;
  refused: Set<OptionalField>;
  reasons: boolean;
}

/**
 * Endpoints that take `max_completion_tokens` for every model: OpenAI's API (where reasoning models
 * require it), Azure OpenAI, OpenRouter and Groq (both document it). Everywhere else `max_tokens`
 * is sent, which every OpenAI-compatible server understands; servers that do not know
 * `max_completion_tokens` ignore it without a word, and an answer would have no cap.
 */
const COMPLETION_TOKENS_HOSTS = /(^|\.)(api\.openai\.com|openai\.azure\.com|openrouter\.ai|api\.groq\.com)$/i;

/** The budget's field an endpoint is first sent. */
export function defaultBudgetField(baseUrl: string): BudgetField {
  try {
    return COMPLETION_TOKENS_HOSTS.test(new URL(baseUrl).hostname) ? "max_completion_tokens" : "max_tokens";
  } catch {
    return "max_tokens";
  }
}

/** OpenRouter, which takes a reasoning effort as `reasoning: {effort}` and turns it into each model's own control. */
const OPENROUTER = /(^|\.)openrouter\.ai$/i;

/**
 * How a reasoning effort is asked for at an endpoint: OpenRouter's `reasoning` object (`enabled:
 * false` for `off`), elsewhere OpenAI's `reasoning_effort` (nothing for `off`, which not every
 * model takes). An endpoint that refuses either is learnt to go without it (`RequestShapes.learn`).
 */
export function reasoningFields(baseUrl: string, effort: ReasoningEffort | undefined): { reasoning?: object; reasoning_effort?: string } {
  if (!effort) return {};
  let openrouter = false;
  try {
    openrouter = OPENROUTER.test(new URL(baseUrl).hostname);
  } catch {
    // Not a URL: asked as OpenAI's API is.
  }
  if (openrouter) return { reasoning: effort === "off" ? { enabled: false } : { effort } };
  return effort === "off" ? {} : { reasoning_effort: effort };
}

/** Words by which a 400 or 422 says a parameter is not taken, as opposed to a bad value of a known one. */
const REFUSAL =
  /unsupported|unrecogni[sz]ed|not supported|not permitted|not allowed|extra (inputs|fields|parameters)|extra_forbidden|unknown (name|field|parameter)|no such|not a valid (field|parameter)/i;

/**
 * The optional field that an endpoint's answer (its status and body) refuses, among those the
 * request sent; undefined when the answer is not such a refusal. OpenAI names the field in
 * `error.param`; others name it in the message (Mistral and vLLM in a validation error's `loc`,
 * OpenAI's older "Unrecognized request argument supplied: X"), where the first field named counts.
 */
export function refusedField(status: number, body: string, sent: readonly OptionalField[]): OptionalField | undefined {
  if ((status !== 400 && status !== 422) || !REFUSAL.test(body)) return undefined;
  const param = paramOf(body);
  if (param) {
    const named = sent.find((f) => f === param || param.startsWith(`${f}.`));
    if (named) return named;
  }
  let first: { field: OptionalField; at: number } | undefined;
  for (const field of sent) {
    const at = body.search(new RegExp(`(?<![A-Za-z_])${field}(?![A-Za-z_])`));
    if (at >= 0 && (!first || at < first.at)) first = { field, at };
  }
  return first?.field;
}

/** OpenAI's `error.param`, when the body is its error shape. */
function paramOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { param?: unknown } };
    return typeof parsed?.error?.param === "string" ? parsed.error.param : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What each endpoint and model was learnt to take, shared by every client of one model factory.
 * `fields` writes a request's optional fields as the endpoint takes them; `learn` reads a refusal.
 */
export class RequestShapes {
  private readonly shapes = new Map<string, Shape>();

  /** `budgetOf`: the budget's field an endpoint is first sent (the hosts' defaults, or a test's). */
  constructor(private readonly budgetOf: (baseUrl: string) => BudgetField = defaultBudgetField) {}

  private shape(baseUrl: string, model: string): Shape {
    const key = `${baseUrl}|${model}`;
    let shape = this.shapes.get(key);
    if (!shape) this.shapes.set(key, (shape = { budget: this.budgetOf(baseUrl), refused: new Set(), reasons: false }));
    return shape;
  }

  /** Notes that `model` at `baseUrl` was seen reasoning: it is given thinking room from now on. */
  noteReasoning(baseUrl: string, model: string): void {
    this.shape(baseUrl, model).reasons = true;
  }

  /** True when `model` at `baseUrl` was seen reasoning. */
  reasons(baseUrl: string, model: string): boolean {
    return this.shape(baseUrl, model).reasons;
  }

  /**
   * The optional fields of a request to `model` at `baseUrl`: the token budget under the field the
   * endpoint takes, and each other wanted field unless the endpoint refused it.
   */
  fields(
    baseUrl: string,
    model: string,
    wanted: { maxTokens?: number } & Partial<Record<Exclude<OptionalField, BudgetField>, unknown>>,
  ): Record<string, unknown> {
    const { budget, refused } = this.shape(baseUrl, model);
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(wanted)) {
      if (value === undefined || field === "maxTokens" || refused.has(field as OptionalField)) continue;
      out[field] = value;
    }
    if (wanted.maxTokens && !refused.has(budget)) out[budget] = wanted.maxTokens;
    return out;
  }

  /**
   * Reads an endpoint's answer to a request that sent `body`'s fields: true when it refused one of
   * them and the request should be sent again (written anew by `fields`), false otherwise. A field
   * is learnt once: a second refusal of it is the endpoint's last word.
   */
  learn(baseUrl: string, model: string, sent: Record<string, unknown>, status: number, body: string): boolean {
    const fields = OPTIONAL_FIELDS.filter((f) => f in sent);
    const field = refusedField(status, body, fields);
    if (!field) return false;
    const shape = this.shape(baseUrl, model);
    if (shape.refused.has(field)) return false;
    shape.refused.add(field);
    // The budget moves to the other field, unless that was refused too: then the answer goes
    // without a cap rather than not at all.
    if (field === "max_tokens" && !shape.refused.has("max_completion_tokens")) shape.budget = "max_completion_tokens";
    if (field === "max_completion_tokens" && !shape.refused.has("max_tokens")) shape.budget = "max_tokens";
    return true;
  }
}
