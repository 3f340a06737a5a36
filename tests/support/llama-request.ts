import { z } from "zod";
import type { ChatHistoryItem } from "node-llama-cpp";

/**
 * The part of an OpenAI chat-completions request body that the test llama server reads; other
 * fields (tools, response_format, …) pass through unread, as llama-server ignores what it lacks.
 */
const textPart = z.object({ type: z.literal("text"), text: z.string() });
const message = z.object({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.union([z.string(), z.array(textPart), z.null()]).optional(),
});

/** A chat-completions request body, validated. */
export const chatRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().nullish(),
  max_completion_tokens: z.number().int().nullish(),
  temperature: z.number().min(0).nullish(),
  top_p: z.number().nullish(),
  top_k: z.number().int().nullish(),
  min_p: z.number().nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  presence_penalty: z.number().nullish(),
  frequency_penalty: z.number().nullish(),
  repeat_penalty: z.number().nullish(),
});

/** A validated chat-completions request body. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The seed used when a request names none, so that sampled outputs repeat from run to run. */
export const defaultSeed = 42;

/**
 * Sampling for one request: llama-server's defaults (top_k 40, top_p 0.95, min_p 0.05, no
 * repetition penalty) except temperature, 0 (greedy) unless asked, and the seed, fixed unless asked.
 */
export interface Sampling {
  temperature: number;
  topK: number;
  topP: number;
  minP: number;
  seed: number;
  stop: string[];
  repeatPenalty: false | { penalty: number; frequencyPenalty: number; presencePenalty: number; lastTokens: number };
  /** The most tokens to generate, or undefined for as many as the context holds. */
  maxTokens: number | undefined;
}

/** The request's sampling settings (see `Sampling`). */
export function samplingOf(request: ChatRequest): Sampling {
  const limits = [request.max_tokens, request.max_completion_tokens].filter((n): n is number => n != null && n >= 0);
  const penalised = [request.presence_penalty, request.frequency_penalty].some((p) => p != null && p !== 0) || (request.repeat_penalty ?? 1) !== 1;
  return {
    temperature: request.temperature ?? 0,
    topK: request.top_k ?? 40,
    topP: request.top_p ?? 0.95,
    minP: request.min_p ?? 0.05,
    seed: request.seed ?? defaultSeed,
    stop: request.stop == null ? [] : typeof request.stop === "string" ? [request.stop] : request.stop,
    repeatPenalty: penalised
      ? {
          penalty: request.repeat_penalty ?? 1,
          frequencyPenalty: request.frequency_penalty ?? 0,
          presencePenalty: request.presence_penalty ?? 0,
          lastTokens: 64,
        }
      : false,
    maxTokens: limits.length ? Math.min(...limits) : undefined,
  };
}

/** A message's text: the string, or its text parts joined by newlines as llama-server joins them. */
function textOf(content: z.infer<typeof message>["content"]): string {
  if (content == null) return "";
  return typeof content === "string" ? content : content.map((p) => p.text).join("\n");
}

/**
 * The messages as node-llama-cpp's chat history (`developer` counts as `system`), ending with an
 * empty model turn for the answer, which the chat template renders as the generation prompt.
 */
export function historyOf(request: ChatRequest): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = request.messages.map((m): ChatHistoryItem => {
    const text = textOf(m.content);
    if (m.role === "assistant") return { type: "model", response: [text] };
    return m.role === "user" ? { type: "user", text } : { type: "system", text };
  });
  history.push({ type: "model", response: [] });
  return history;
}
