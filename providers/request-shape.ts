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
export const OPTIONAL_FIELDS = ["max_tokens", "max_completion_tokens", "stream_options", "reasoning", "reasoning_effort"] as const;
export type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/** What is known of one endpoint and model: the budget's field, the fields it refused, the most it takes as a budget, and whether it was seen reasoning. */
interface Shape {
  budget: BudgetField;
  refused: Set<OptionalField>;
  ceiling?: number;
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
 * Words by which a 400 says the reasoning asked for is not what the model takes, though it knows
 * the field: OpenRouter's "Reasoning is mandatory for this endpoint and cannot be disabled" (to
 * `reasoning: {enabled: false}` on a model that always reasons), Groq's "reasoning_effort must be
 * one of none or default" (its Qwen3 models). The reasoning fields are debatt's own additions, so
 * such an answer too means: send the request without it.
 */
const EFFORT_REFUSAL = /mandatory|cannot be disabled|must be one of|invalid value|unsupported value/i;
const REASONING_FIELDS: readonly OptionalField[] = ["reasoning", "reasoning_effort"];

/**
 * The optional field that an endpoint's answer (its status and body) refuses, among those the
 * request sent; undefined when the answer is not such a refusal. OpenAI names the field in
 * `error.param`; others name it in the message (Mistral and vLLM in a validation error's `loc`,
 * OpenAI's older "Unrecognized request argument supplied: X"), where the first field named counts.
 * A reasoning field is also refused by a 400 that refuses its value (`EFFORT_REFUSAL`).
 */
export function refusedField(status: number, body: string, sent: readonly OptionalField[]): OptionalField | undefined {
  if (status !== 400 && status !== 422) return undefined;
  if (REFUSAL.test(body)) return namedField(body, sent, false);
  if (!EFFORT_REFUSAL.test(body)) return undefined;
  return namedField(
    body,
    sent.filter((f) => REASONING_FIELDS.includes(f)),
    true,
  );
}

/** The field of `sent` an error body names: in OpenAI's `error.param`, else the first named in the text (`anyCase`: "Reasoning" too). */
function namedField(body: string, sent: readonly OptionalField[], anyCase: boolean): OptionalField | undefined {
  const param = paramOf(body);
  if (param) {
    const named = sent.find((f) => f === param || param.startsWith(`${f}.`));
    if (named) return named;
  }
  let first: { field: OptionalField; at: number } | undefined;
  for (const field of sent) {
    const at = body.search(new RegExp(`(?<![A-Za-z_])${field}(?![A-Za-z_])`, anyCase ? "i" : ""));
    if (at >= 0 && (!first || at < first.at)) first = { field, at };
  }
  return first?.field;
}

/** Words by which a 400 says a budget is larger than the model takes, and the most it takes: OpenAI's "max_tokens is too large: 16800. This model supports at most 16384 completion tokens", Anthropic's "max_tokens: 70000 > 64000", Qwen's "Range of max_tokens should be [1, 8192]". */
const CEILING = /(?:at most|maximum(?: value)?(?: is| of)?|up to|less than or equal to|<=|>)\s*`?(\d[\d,]*)|\[\s*\d+\s*,\s*(\d+)\s*\]/i;

/**
 * The most a model takes as its budget, from a 400 or 422 that refuses the budget `sent` as too
 * large (naming either budget field: OpenAI says `max_tokens` of a `max_completion_tokens` too);
 * undefined when the answer is not that, or names no smaller number.
 */
export function budgetCeiling(status: number, body: string, sent: number): number | undefined {
  if ((status !== 400 && status !== 422) || !/max_(completion_)?tokens/.test(body) || !/too large|exceed|maximum|at most|greater than|>|range/i.test(body))
    return undefined;
  const m = CEILING.exec(body);
  const most = m ? Number((m[1] ?? m[2]).replace(/,/g, "")) : NaN;
  return Number.isInteger(most) && most > 0 && most < sent ? most : undefined;
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
    const { budget, refused, ceiling } = this.shape(baseUrl, model);
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(wanted)) {
      if (value === undefined || field === "maxTokens" || refused.has(field as OptionalField)) continue;
      out[field] = value;
    }
    if (wanted.maxTokens && !refused.has(budget)) out[budget] = Math.min(wanted.maxTokens, ceiling ?? Infinity);
    return out;
  }

  /**
   * True when `model` at `baseUrl` takes a reasoning effort: it was not refused, or the model
   * reasons anyway (it was seen reasoning). A model that refused the effort and never reasoned
   * gets no thinking room: room it cannot use could pass what it takes as a budget.
   */
  takesThinking(baseUrl: string, model: string): boolean {
    const { refused, reasons } = this.shape(baseUrl, model);
    return reasons || !REASONING_FIELDS.some((f) => refused.has(f));
  }

  /**
   * Reads an endpoint's answer to a request that sent `sent`'s fields: true when it refused one of
   * them and the request should be sent again (written anew by `fields`), false otherwise. A field
   * already learnt is sent no more, so its refusal answers a request written before it was learnt
   * (calls to one model at once): that request, too, is sent again.
   */
  learn(baseUrl: string, model: string, sent: Record<string, unknown>, status: number, body: string): boolean {
    const shape = this.shape(baseUrl, model);
    // A budget larger than the model takes: the most it takes, learnt, and the call sent again.
    const budget = (["max_tokens", "max_completion_tokens"] as const).find((f) => typeof sent[f] === "number");
    const ceiling = budget && budgetCeiling(status, body, sent[budget] as number);
    if (ceiling) {
      shape.ceiling = Math.min(shape.ceiling ?? Infinity, ceiling);
      return true;
    }
    const fields = OPTIONAL_FIELDS.filter((f) => f in sent);
    const field = refusedField(status, body, fields);
    if (!field) return false;
    if (shape.refused.has(field)) return true;
    shape.refused.add(field);
    // The budget moves to the other field, unless that was refused too: then the answer goes
    // without a cap rather than not at all.
    if (field === "max_tokens" && !shape.refused.has("max_completion_tokens")) shape.budget = "max_completion_tokens";
    if (field === "max_completion_tokens" && !shape.refused.has("max_tokens")) shape.budget = "max_tokens";
    return true;
  }
}
