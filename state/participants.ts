import { z } from "zod";
import { DebattError } from "./errors.js";
import { ReasoningEffortSchema } from "./reasoning.js";
import { FORMATS, MAX_PARTICIPANTS, MIN_PARTICIPANTS, type FormatId, type FormatSpec } from "./formats.js";

/** One debater: a chat model with a stable key and a display name. */
export const ParticipantSchema = z.object({
  /** Stable id, e.g. `call_grok`; used in events as `model_key`. */
  key: z.string().regex(/^[a-z][a-z0-9_]*$/, "key must be snake_case, e.g. call_grok"),
  /** Name shown to people and to the other models, e.g. `Grok`. */
  display: z.string().min(1).max(40),
  /** Model id at the OpenAI-compatible endpoint, e.g. `x-ai/grok-4`. */
  model: z.string().min(1),
  /** True for the internal participant that may research with web search. */
  oneseek: z.boolean().optional(),
  /** True for the seat of the person who joined the debate (`--with-me`): no model is asked for it. */
  person: z.boolean().optional(),
  /** Text-to-speech voice for /dvoice. */
  voice: z.string().optional(),
  /** This participant's own OpenAI-compatible endpoint (OpenRouter, OpenAI, a local Ollama or vLLM); absent → OPENAI_BASE_URL. */
  baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL, e.g. http://localhost:11434/v1" }).optional(),
  /** The name of the environment variable that holds this participant's key (never the key itself); absent → OPENAI_API_KEY. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "apiKeyEnv is the name of an environment variable, e.g. ANTHROPIC_API_KEY (not the key itself)")
    .optional(),
  /**
   * How much this participant is asked to think before it answers (`off`, `low`, `medium`, `high`);
   * absent: `low` for a model that reasons, nothing asked of one that does not. A run's own setting wins.
   */
  reasoning: ReasoningEffortSchema.optional(),
});
export type Participant = z.infer<typeof ParticipantSchema>;

/** A roster: 2–8 participants with unique keys and display names, at most one OneSeek. */
export const RosterSchema = z
  .array(ParticipantSchema)
  .min(MIN_PARTICIPANTS, `a debate needs at least ${MIN_PARTICIPANTS} participants`)
  .max(MAX_PARTICIPANTS, `a debate takes at most ${MAX_PARTICIPANTS} participants`)
  .superRefine((roster, ctx) => {
    const seen = new Set<string>();
    for (const p of roster) {
      for (const id of [p.key, p.display.toLowerCase()]) {
        if (seen.has(id)) ctx.addIssue({ code: "custom", message: `duplicate participant "${id}"` });
        seen.add(id);
      }
    }
    // The person's seat is added per run, never configured.
    if (roster.some((p) => p.person || p.key === "person"))
      ctx.addIssue({ code: "custom", message: 'the key "person" and the person flag are kept for the seat of a person who joins a debate' });
    if (roster.filter((p) => p.oneseek).length > 1) {
      ctx.addIssue({ code: "custom", message: "at most one participant may be oneseek" });
    }
  });

/** The eight default debaters, with OpenRouter-style model ids and their default voices. */
export function defaultRoster(oneseekModel = "openai/gpt-4.1-mini"): Participant[] {
  return [
    { key: "call_grok", display: "Grok", model: "x-ai/grok-4", voice: "fable" },
    { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5", voice: "nova" },
    { key: "call_gpt", display: "ChatGPT", model: "openai/gpt-5", voice: "echo" },
    { key: "call_gemini", display: "Gemini", model: "google/gemini-2.5-pro", voice: "shimmer" },
    { key: "call_deepseek", display: "DeepSeek", model: "deepseek/deepseek-chat-v3.1", voice: "alloy" },
    { key: "call_perplexity", display: "Perplexity", model: "perplexity/sonar-pro", voice: "onyx" },
    { key: "call_qwen", display: "Qwen", model: "qwen/qwen3-max", voice: "fable" },
    { key: "call_oneseek", display: "OneSeek", model: oneseekModel, oneseek: true, voice: "nova" },
  ];
}

/**
 * Picks the requested participants (by key or display name, case-insensitive) from the roster,
 * keeping roster order. Throws a message naming the unknown entries or the count problem.
 */
export function selectParticipants(roster: Participant[], requested?: string[] | null): Participant[] {
  if (!requested || requested.length === 0) return roster;
  const wanted = new Set(requested.map((r) => r.trim().toLowerCase()));
  const unknown = [...wanted].filter((w) => !roster.some((p) => p.key === w || p.display.toLowerCase() === w));
  const known = roster.map((p) => p.key).join(", ");
  if (unknown.length > 0) {
    throw new DebattError("invalid_participants", `unknown participant(s): ${unknown.join(", ")}; known: ${known}`, {
      reason: { key: "unknownParticipants", values: { names: unknown.join(", "), known } },
    });
  }
  const picked = roster.filter((p) => wanted.has(p.key) || wanted.has(p.display.toLowerCase()));
  if (picked.length < MIN_PARTICIPANTS || picked.length > MAX_PARTICIPANTS) {
    throw new DebattError("invalid_participants", `a debate needs ${MIN_PARTICIPANTS}–${MAX_PARTICIPANTS} participants, ${picked.length} requested`, {
      reason: { key: "participantCount", values: { min: MIN_PARTICIPANTS, max: MAX_PARTICIPANTS, count: picked.length } },
    });
  }
  return picked;
}

/**
 * The model ids a request may name besides the roster's (`ALLOWED_MODELS`): `*` for any, else a
 * list. Every call of a model costs money, so by default only the roster's models may be asked.
 */
export type ModelAllowlist = "*" | readonly string[];

/** The name a model goes by where no roster entry names it: its id without the vendor (`openai/gpt-4.1-mini` → `gpt-4.1-mini`). */
export function modelName(model: string): string {
  return model.split("/").at(-1) || model;
}

/** Longest model id shown in an error message (an id may be kilobytes long). */
const SHOWN_ID_CHARS = 80;

/**
 * One participant named by roster key, display name or model id (case-insensitive). A model id
 * (`vendor/model`) that is not on the roster becomes a participant of its own only when the
 * allowlist admits it; otherwise it is refused with `unknown_model`, naming it. Throws naming the
 * entry otherwise.
 */
export function resolveParticipant(roster: Participant[], name: string, allowed: ModelAllowlist = []): Participant {
  const wanted = name.trim().toLowerCase();
  const hit = roster.find((p) => p.key === wanted || p.display.toLowerCase() === wanted || p.model.toLowerCase() === wanted);
  if (hit) return hit;
  if (/^[\w.-]+\/[\w.:-]+$/.test(name.trim())) {
    const model = name.trim();
    if (allowed !== "*" && !allowed.some((m) => m.toLowerCase() === wanted)) {
      const shown = model.length > SHOWN_ID_CHARS ? `${model.slice(0, SHOWN_ID_CHARS)}… (${model.length} characters)` : model;
      const models = roster.map((p) => p.model).join(", ");
      throw new DebattError("unknown_model", `model "${shown}" is not on the roster (${models}), and ALLOWED_MODELS does not allow it`, {
        reason: { key: "modelNotAllowed", values: { model: shown, models } },
      });
    }
    const display = modelName(model);
    return { key: `model_${wanted.replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "")}`, display, model };
  }
  const known = roster.map((p) => p.key).join(", ");
  throw new DebattError("invalid_participants", `unknown participant "${name}": use a roster key (${known}), a display name or a model id like vendor/model`, {
    reason: { key: "unknownParticipant", values: { name, known } },
  });
}

/**
 * The participants of a deliberation format: the requested ones (see `resolveParticipant`), or the
 * first `byDefault` (else `max`) of the roster. A name given twice counts once, unless `bounds.duplicates` is `separate`. Throws naming the command and the count when it is outside min–max.
 */
export function resolveDeliberators(
  roster: Participant[],
  requested: string[] | null | undefined,
  bounds: { command: string; min: number; max: number; duplicates?: "merge" | "separate"; byDefault?: number },
  allowed: ModelAllowlist = [],
): Participant[] {
  const picked: Participant[] = [];
  const copies = new Map<string, number>();
  for (const name of requested?.length ? requested : roster.slice(0, bounds.byDefault ?? bounds.max).map((p) => p.key)) {
    const p = resolveParticipant(roster, name, allowed);
    const n = (copies.get(p.key) ?? 0) + 1;
    copies.set(p.key, n);
    if (n === 1) picked.push(p);
    // With `separate` (/revise), a repeated name is another participant, with its own answer and label.
    else if (bounds.duplicates === "separate") picked.push({ ...p, key: `${p.key}_${n}`, display: `${p.display} (${n})` });
  }
  if (picked.length < bounds.min || picked.length > bounds.max) {
    throw new DebattError(
      "invalid_participants",
      `${bounds.command} needs ${bounds.min}–${bounds.max} models, ${picked.length} ${requested?.length ? "requested" : "on the roster"}`,
      {
        reason: { key: "modelCount", values: { command: bounds.command, min: bounds.min, max: bounds.max, count: picked.length } },
      },
    );
  }
  return picked;
}

/**
 * The participants of a run of `format`: the requested ones, else the format's default. The chat's
 * formats take a subset of the roster by key or name; the deliberation formats also take model
 * ids (of the roster, or admitted by `allowed`), and their own counts. Throws a message naming the problem (unknown name, wrong count).
 */
export function participantsFor(format: FormatId, roster: Participant[], requested?: string[] | null, allowed: ModelAllowlist = []): Participant[] {
  const spec: FormatSpec = FORMATS[format];
  return spec.thread === "chat"
    ? selectParticipants(roster, requested)
    : resolveDeliberators(roster, requested, { command: spec.command, ...spec.participants }, allowed);
}
