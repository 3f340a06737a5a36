import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { DEFAULTS } from "../state/config.js";
import { MODE_MODELS, type ModeConfig } from "../state/deliberation.js";
import { resolveDeliberators, resolveParticipant } from "../state/participants.js";
import { DEEP_MAX_ROUNDS_LIMIT, DEEP_MIN_ROUNDS } from "../nodes/deep-stopping.js";
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

/** Seed 000 §D debateRequestSchema (/revise), made strict; `antiAnchoring` added (seed 002's protocol). */
const debateRequestSchema = z
  .object({
    question: userText("question", DEFAULTS.maxMessageChars),
    mode: z.literal("debate"),
    conversationId: z.string().optional(),
    modeConfig: z
      .object({
        models: z
          .array(z.string().min(1, "a model id is empty"))
          .min(MODE_MODELS.revise.min, `Debate mode requires at least ${MODE_MODELS.revise.min} models`)
          .max(MODE_MODELS.revise.max, `Maximum ${MODE_MODELS.revise.max} models allowed`)
          .optional(),
        timeoutMs: z.number().min(10_000).max(600_000).optional(),
        antiAnchoring: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** /deep (seed 004 gives no request body): the same shape, with seed 004's `maxRounds` (2–6). */
const deepRequestSchema = z
  .object({
    question: userText("question", DEFAULTS.maxMessageChars),
    mode: z.literal("deep"),
    conversationId: z.string().optional(),
    modeConfig: z
      .object({
        models: z
          .array(z.string().min(1, "a model id is empty"))
          .min(MODE_MODELS.deep.min, `Deep mode requires at least ${MODE_MODELS.deep.min} models`)
          .max(MODE_MODELS.deep.max, `Maximum ${MODE_MODELS.deep.max} models allowed`)
          .optional(),
        timeoutMs: z.number().min(10_000).max(600_000).optional(),
        maxRounds: z.number().int().min(DEEP_MIN_ROUNDS).max(DEEP_MAX_ROUNDS_LIMIT).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** /council (seed 002 is a CLI and gives no body): the judges, `debate` for round 2 (`--debate`) and its timeout. */
const councilRequestSchema = z
  .object({
    question: userText("question", DEFAULTS.maxMessageChars),
    mode: z.literal("council"),
    conversationId: z.string().optional(),
    modeConfig: z
      .object({
        models: z
          .array(z.string().min(1, "a model id is empty"))
          .min(MODE_MODELS.council.min, `Council mode requires at least ${MODE_MODELS.council.min} judges`)
          .max(MODE_MODELS.council.max, `Maximum ${MODE_MODELS.council.max} judges allowed`)
          .optional(),
        timeoutMs: z.number().min(10_000).max(600_000).optional(),
        debate: z.boolean().optional(),
        round2TimeoutMs: z.number().min(1_000).max(600_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** The seeds' mode names and the commands they run ("debate" is seed 000's name for /revise). */
const COMMANDS = { vote: MODE_MODELS.vote.command, debate: MODE_MODELS.revise.command, deep: MODE_MODELS.deep.command, council: MODE_MODELS.council.command } as const;
const MODES = { vote: "vote", debate: "revise", deep: "deep", council: "council" } as const;

/** A request body of the seeds' `/api/…/stream` endpoints, by mode. */
const deliberateSchema = z.discriminatedUnion("mode", [voteRequestSchema, debateRequestSchema, deepRequestSchema, councilRequestSchema], {
  error: (issue) => (issue.code === "invalid_union" ? `mode must be one of: ${Object.keys(COMMANDS).join(", ")}` : undefined),
});

/**
 * `POST /api/v1/deliberate/stream`: the seeds' request body (`{question, mode, conversationId?,
 * modeConfig}`, validated with the seeds' zod rules; mode `vote`, `debate`, `deep` or `council`) runs that format and streams its events as
 * SSE, with kebab-case names, exactly like the chat stream.
 */
export function deliberateRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  router.post("/api/v1/deliberate/stream", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, deliberateSchema, '{"question": "…", "mode": "vote"}');
    if (body.conversationId !== undefined) {
      throw new HttpError(404, "conversation_not_found", `conversation "${body.conversationId}" not found: this server does not keep conversations yet, so leave conversationId out to start a new one`);
    }
    const mode = MODES[body.mode];
    const modeConfig: ModeConfig =
      body.mode === "vote"
        ? { models: body.modeConfig?.councilModels, chairman: body.modeConfig?.chairmanModel, timeoutMs: body.modeConfig?.timeoutMs }
        : { ...body.modeConfig };
    try {
      resolveDeliberators(deps.settings.roster, modeConfig.models, MODE_MODELS[mode]);
      if (modeConfig.chairman) resolveParticipant(deps.settings.roster, modeConfig.chairman);
    } catch (err) {
      throw new HttpError(400, "invalid_participants", (err as Error).message);
    }
    assertAccepting(deps.runs);
    await streamRun(deps, res, { message: `${COMMANDS[body.mode]} ${body.question}`, modeConfig });
  });
  router.all("/api/v1/deliberate/stream", postOnly);
  return router;
}
