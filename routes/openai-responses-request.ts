import { withoutArenaData } from "../state/text.js";
import { z } from "zod";
import type { Requester } from "../state/ownership.js";
import { DELIBERATION_MODES, type DeliberationMode, type FormatId } from "../state/formats.js";
import { participantsField, type ChatRouteDeps } from "./chat.js";
import { HttpError } from "./errors.js";
import { checkFollowUp, CONVERSATION_ID } from "./follow-up.js";
import { maxCostUsdField, tokens, type ChatMessage, type ResultShape, resultShapeOf } from "./openai-request.js";

/** A part of an input message's content: text (`input_text`, `output_text`) and refusals are read, and files whose text can be read (`input_file`, as material); images, audio and other files are not. */
const Part = z
  .object({ type: z.string({ error: "a content part's type must be a string" }), text: z.string().optional(), refusal: z.string().optional() })
  .passthrough();

/** An input item: a message `{role, content}`, or another kind of item (a function call and its output, reasoning, a reference to an earlier item…). */
const Item = z
  .object({
    type: z.string().optional(),
    role: z.enum(["user", "assistant", "system", "developer"], { error: "an input message's role must be user, assistant, system or developer" }).optional(),
    content: z.union([z.string(), z.array(Part)], { error: "an input message's content must be a string or a list of parts" }).optional(),
    id: z.string().optional(),
  })
  .passthrough();

/** The JSON a client may ask the result to be (`text.format`): any object, or one of a schema. */
const TextFormat = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("text") }).passthrough(),
    z.object({ type: z.literal("json_object") }).passthrough(),
    z.object({ type: z.literal("json_schema"), name: z.string().optional(), schema: z.record(z.string(), z.unknown()).optional() }).passthrough(),
  ],
  { error: 'text.format must be {"type": "text"}, {"type": "json_object"} or {"type": "json_schema", "name": …, "schema": {...}}' },
);

/**
 * The body of `POST /v1/responses`. As with chat completions, the fields that change what the
 * answer is are honoured (`text.format`, `max_output_tokens`, `previous_response_id`) or refused by
 * name (`tool_choice` forcing a tool, `top_logprobs`, `background`, `conversation`, `prompt`); the
 * others (`instructions`, `temperature`, `store`, `reasoning`…) are accepted and ignored.
 * `participants` and `max_cost_usd` are debatt's own.
 */
export const ResponsesBody = z
  .object(
    {
      model: z.string({ error: "model must be a string, e.g. debatt or debatt-vote (GET /v1/models lists them)" }),
      input: z.union([z.string(), z.array(Item).min(1, "input is empty: the last message is the question").max(1000, "input has more than 1000 items")], {
        error: "input must be the question: a string, or a list of messages {role, content}",
      }),
      stream: z.boolean({ error: "stream must be true or false" }).nullable().optional(),
      max_output_tokens: tokens("max_output_tokens"),
      text: z
        .object({ format: TextFormat.nullable().optional() }, { error: 'text must be an object, e.g. {"format": {"type": "json_object"}}' })
        .passthrough()
        .nullable()
        .optional(),
      previous_response_id: z.string({ error: "previous_response_id must be a string" }).nullable().optional(),
      participants: participantsField,
      max_cost_usd: maxCostUsdField,
    },
    { error: "the body must be a JSON object" },
  )
  .passthrough();
/** A parsed `POST /v1/responses` body. */
export type ResponsesRequest = z.infer<typeof ResponsesBody>;

/** Fields of the Responses API that cannot be honoured, and why: 400 naming them. */
const REFUSED = {
  background: "a response is answered on its request, not kept to be fetched later; leave it out (and stream for long runs)",
  conversation: "debatt keeps its own conversations: continue one with previous_response_id",
  prompt: "there are no stored prompts here: send the question as input",
} as const;

/**
 * What the request asks of the result (`text.format`, `max_output_tokens`), or 400 naming a field
 * that cannot be honoured: a forced tool, token probabilities, a background response, a stored
 * conversation or prompt.
 */
export function responseShapeOf(body: ResponsesRequest): ResultShape {
  const extra = body as Record<string, unknown>;
  for (const [field, why] of Object.entries(REFUSED)) {
    if (extra[field] !== undefined && extra[field] !== null && extra[field] !== false)
      throw new HttpError(400, "invalid_body", `${field} cannot be honoured: ${why}`);
  }
  const format = body.text?.format;
  const choice = extra.tool_choice as { type?: string; mode?: string } | string | undefined;
  // A list of allowed tools that the model may leave (mode "auto") forces none.
  const allowedAuto = typeof choice === "object" && choice?.type === "allowed_tools" && choice.mode === "auto";
  return resultShapeOf(
    {
      tool_choice: allowedAuto ? "auto" : choice,
      top_logprobs: extra.top_logprobs,
      response_format: format?.type === "json_schema" ? { type: "json_schema", json_schema: { schema: format.schema } } : (format ?? undefined),
      max_tokens: body.max_output_tokens,
    },
    "text.format",
  );
}

/** The answer of one of the user's runs in the history, by an id that is a prefix and the run's id (`resp_…`, `msg_…`). */
async function answerOf(deps: ChatRouteDeps, user: Requester, id: string, prefix: string) {
  const runId = id.slice(prefix.length);
  if (!deps.history || !id.startsWith(prefix) || !CONVERSATION_ID.test(runId)) return undefined;
  const answer = await deps.history.message(runId);
  return answer?.role === "assistant" && (await deps.service.mayReadRun(user, runId)) ? answer : undefined;
}

/**
 * `previous_response_id`: the conversation of that response's run, which the new run continues
 * (its thread keeps the earlier questions and answers), under the rules of a follow-up on the page:
 * the same format, one that takes follow-ups. 404 when it is no response of the user's.
 */
export async function conversationOf(deps: ChatRouteDeps, user: Requester, id: string, format: FormatId): Promise<string> {
  if (!deps.history) throw new HttpError(501, "no_history", "this server keeps no history, so it cannot go on from previous_response_id");
  const answer = await answerOf(deps, user, id, "resp_");
  if (!answer) throw new HttpError(404, "debate_not_found", `previous_response_id "${id.slice(0, 80)}" is no response of yours in the history`);
  const mode = (DELIBERATION_MODES as readonly string[]).includes(format) ? (format as DeliberationMode) : undefined;
  await checkFollowUp(deps.service, user, answer.conversationId, mode);
  return answer.conversationId;
}

/** The most characters of earlier answers a request's references may bring back from the history. */
const MAX_REFERENCED_CHARS = 400_000;

/** An item that is not a message, to be left out and named (as a chat message's part that is not text). */
const leftOut = (kind: string): ChatMessage => ({ role: "tool", content: [{ type: kind }] });

/**
 * The input as chat messages: a string is the question; a list's messages keep their roles, their
 * `input_text` and `output_text` parts read as text (the others left out and named). A reference to
 * an earlier answer of debatt's (`item_reference` to its `msg_` item, as the Vercel AI SDK sends
 * one) is that answer, from the history; reasoning items are the progress of earlier answers and
 * are not the conversation. Other items (function calls, their outputs) are left out and named.
 */
export async function chatMessages(deps: ChatRouteDeps, user: Requester, input: ResponsesRequest["input"]): Promise<ChatMessage[]> {
  if (typeof input === "string") return [{ role: "user", content: input }];
  const messages: ChatMessage[] = [];
  // What references may bring back from the history in all: the answers of a long conversation, not more.
  let referenced = 0;
  for (const [i, item] of input.entries()) {
    const type = item.type ?? "message";
    if (type === "message") {
      if (!item.role) throw new HttpError(400, "invalid_body", `input[${i}]: a message needs its role (user, assistant, system or developer)`);
      const content =
        typeof item.content === "string"
          ? item.content
          : (item.content ?? []).map((p) => (p.type === "input_text" || p.type === "output_text" ? { type: "text", text: p.text ?? "" } : p));
      messages.push({ role: item.role, content });
    } else if (type === "item_reference" && item.id?.startsWith("msg_")) {
      const answer = await answerOf(deps, user, item.id, "msg_");
      const text = answer && withoutArenaData(answer.content);
      referenced += text?.length ?? 0;
      if (referenced > MAX_REFERENCED_CHARS)
        throw new HttpError(
          400,
          "invalid_body",
          `input: the earlier answers it references (item_reference) come to more than ${MAX_REFERENCED_CHARS} characters; send fewer of them`,
        );
      messages.push(text !== undefined ? { role: "assistant", content: text } : leftOut(type));
    } else if (type !== "reasoning" && !(type === "item_reference" && item.id?.startsWith("rs_"))) messages.push(leftOut(type));
  }
  return messages;
}
