import { Router, type Request, type Response } from "express";
import { z } from "zod";
import type { FormatOptions } from "../state/config.js";
import { FORMATS, formatOfStoredMode, type DeliberationMode } from "../state/formats.js";
import { participantsFor, resolveParticipant } from "../state/participants.js";
import { MAX_MESSAGE_CHARS, userText } from "../state/text.js";
import { parseJsonBody, postOnly, streamRun, type ChatRouteDeps } from "./chat.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { participantsRefused } from "./errors.js";
import { checkFollowUp } from "./follow-up.js";

/**
 * A request body (`{question, mode, conversationId?, modeConfig?}`) for one mode, made strict:
 * a misspelt field is refused, not ignored.
 */
function requestSchema<M extends string, C extends z.ZodRawShape>(mode: M, modeConfig: C) {
  return z
    .object({
      question: userText("question", MAX_MESSAGE_CHARS),
      mode: z.literal(mode),
      conversationId: z.string().optional(),
      modeConfig: z.object(modeConfig).strict().optional(),
    })
    .strict();
}

/** A format's model list; errors like `Vote mode requires at least 3 models`, `Maximum 7 models allowed`. */
function modelList(format: DeliberationMode, label: string, noun = "models") {
  const { min, max } = FORMATS[format].participants;
  return z
    .array(z.string().min(1, "a model id is empty"))
    .min(min, `${label} mode requires at least ${min} ${noun}`)
    .max(max, `Maximum ${max} ${noun} allowed`)
    .optional();
}

/** /vote's body: 3–7 `councilModels`, an optional `chairmanModel` and `timeoutMs` (10–300 s). */
const voteRequestSchema = requestSchema("vote", {
  councilModels: modelList("vote", "Vote"),
  chairmanModel: z.string().min(1, "chairmanModel is empty").optional(),
  timeoutMs: z.number().min(10_000).max(300_000).optional(),
});

/** /revise's body (mode `debate`); `antiAnchoring` (added) turns on the anti-anchoring protocol. */
const debateRequestSchema = requestSchema("debate", {
  models: modelList("revise", "Debate"),
  timeoutMs: z.number().min(10_000).max(600_000).optional(),
  antiAnchoring: z.boolean().optional(),
});

/** /deep's body: the same shape, with `maxRounds` (2–6). */
const deepRequestSchema = requestSchema("deep", {
  models: modelList("deep", "Deep"),
  timeoutMs: z.number().min(10_000).max(600_000).optional(),
  maxRounds: z.number().int().min(FORMATS.deep.rounds.min).max(FORMATS.deep.rounds.max).optional(),
});

/** /council's body: the judges, `debate` for round 2 (`--debate`) and its timeout. */
const councilRequestSchema = requestSchema("council", {
  models: modelList("council", "Council", "judges"),
  timeoutMs: z.number().min(10_000).max(600_000).optional(),
  debate: z.boolean().optional(),
  round2TimeoutMs: z.number().min(1_000).max(600_000).optional(),
});

/** The request's mode names ("debate" is the stored name of /revise). */
const MODES = ["vote", "debate", "deep", "council"] as const;

/** A request body of the deliberate endpoint, by mode. */
const deliberateSchema = z.discriminatedUnion("mode", [voteRequestSchema, debateRequestSchema, deepRequestSchema, councilRequestSchema], {
  error: (issue) => (issue.code === "invalid_union" ? `mode must be one of: ${MODES.join(", ")}` : undefined),
});

/**
 * `POST /api/v1/deliberate/stream`: a request body (`{question, mode, conversationId?,
 * modeConfig}`, validated with the schemas above; mode `vote`, `debate`, `deep` or `council`)
 * runs that format and streams its events as SSE, with kebab-case names, like the chat stream.
 */
export function deliberateRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  router.post("/api/v1/deliberate/stream", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, deliberateSchema, '{"question": "…", "mode": "vote"}');
    const mode = formatOfStoredMode(body.mode) as DeliberationMode;
    const user = userOf(res);
    if (body.conversationId !== undefined) await checkFollowUp(deps.service, user, body.conversationId, mode);
    const modeConfig: FormatOptions =
      body.mode === "vote"
        ? { models: body.modeConfig?.councilModels, chairman: body.modeConfig?.chairmanModel, timeoutMs: body.modeConfig?.timeoutMs }
        : { ...body.modeConfig };
    try {
      participantsFor(mode, deps.settings.roster, modeConfig.models, deps.settings.allowedModels);
      if (modeConfig.chairman) resolveParticipant(deps.settings.roster, modeConfig.chairman, deps.settings.allowedModels);
    } catch (err) {
      throw participantsRefused(err);
    }
    await streamRun(deps, res, {
      message: `${FORMATS[mode].command} ${body.question}`,
      threadId: body.conversationId,
      question: body.question,
      configurable: { mode_config: modeConfig },
      owner: user.id,
      quotaKey: quotaKeyOf(req, res),
    });
  });
  router.all("/api/v1/deliberate/stream", postOnly);
  return router;
}
