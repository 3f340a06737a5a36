import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { DEFAULTS } from "../state/config.js";
import { MODE_MODELS } from "../state/deliberation.js";
import { resolveDeliberators, resolveParticipant } from "../state/participants.js";
import { assertAccepting, parseJsonBody, postOnly, streamRun, userText, type ChatRouteDeps } from "./chat.js";
import { HttpError } from "./errors.js";

/** Seed 001 §D voteRequestSchema, made strict: a misspelt field is refused, not ignored. */
const voteRequestSchema = z
  .object({
    question: userText("question", DEFAULTS.maxMessageChars),
    mode: z.literal("vote"),
    conversationId: z.string().optional(),
    modeConfig: z
      .object({
        councilModels: z
          .array(z.string().min(1, "a model id is empty"))
          .min(MODE_MODELS.vote.min, `Vote mode requires at least ${MODE_MODELS.vote.min} models`)
          .max(MODE_MODELS.vote.max, `Maximum ${MODE_MODELS.vote.max} models allowed`)
          .optional(),
        chairmanModel: z.string().min(1, "chairmanModel is empty").optional(),
        timeoutMs: z.number().min(10_000).max(300_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** A request body of the seeds' `/api/…/stream` endpoints, by mode. */
const deliberateSchema = z.discriminatedUnion("mode", [voteRequestSchema], {
  error: (issue) => (issue.code === "invalid_union" ? `mode must be one of: ${Object.keys(MODE_MODELS).join(", ")}` : undefined),
});

/**
 * `POST /api/v1/deliberate/stream`: the seeds' request body (`{question, mode, conversationId?,
 * modeConfig}`, validated with the seeds' zod rules) runs that format and streams its events as
 * SSE, with kebab-case names, exactly like the chat stream.
 */
export function deliberateRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  router.post("/api/v1/deliberate/stream", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, deliberateSchema, '{"question": "…", "mode": "vote"}');
    if (body.conversationId !== undefined) {
      throw new HttpError(404, "conversation_not_found", `conversation "${body.conversationId}" not found: this server does not keep conversations yet, so leave conversationId out to start a new one`);
    }
    const mc = body.modeConfig ?? {};
    try {
      resolveDeliberators(deps.settings.roster, mc.councilModels, MODE_MODELS[body.mode]);
      if (mc.chairmanModel) resolveParticipant(deps.settings.roster, mc.chairmanModel);
    } catch (err) {
      throw new HttpError(400, "invalid_participants", (err as Error).message);
    }
    assertAccepting(deps.runs);
    await streamRun(deps, res, {
      message: `${MODE_MODELS[body.mode].command} ${body.question}`,
      modeConfig: { models: mc.councilModels, chairman: mc.chairmanModel, timeoutMs: mc.timeoutMs },
    });
  });
  router.all("/api/v1/deliberate/stream", postOnly);
  return router;
}
