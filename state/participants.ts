import { z } from "zod";

/** Smallest and largest number of debaters a debate accepts. */
export const MIN_PARTICIPANTS = 2;
export const MAX_PARTICIPANTS = 8;

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
  /** Text-to-speech voice for /dvoice. */
  voice: z.string().optional(),
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
    if (roster.filter((p) => p.oneseek).length > 1) {
      ctx.addIssue({ code: "custom", message: "at most one participant may be oneseek" });
    }
  });

/** The seed's eight debaters (§1), with OpenRouter-style model ids and the seed's voices (§3.3). */
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
  const unknown = [...wanted].filter(
    (w) => !roster.some((p) => p.key === w || p.display.toLowerCase() === w),
  );
  if (unknown.length > 0) {
    throw new Error(
      `unknown participant(s): ${unknown.join(", ")}; known: ${roster.map((p) => p.key).join(", ")}`,
    );
  }
  const picked = roster.filter((p) => wanted.has(p.key) || wanted.has(p.display.toLowerCase()));
  if (picked.length < MIN_PARTICIPANTS || picked.length > MAX_PARTICIPANTS) {
    throw new Error(
      `a debate needs ${MIN_PARTICIPANTS}–${MAX_PARTICIPANTS} participants, ${picked.length} requested`,
    );
  }
  return picked;
}
