import { Router, type Request, type Response } from "express";
import { z } from "zod";
import type { FormatOptions } from "../state/run-config.js";
import { DEFINED_FORMATS, FORMAT_DEFINITIONS, type FormatDefinition } from "../service/formats.js";
import { FORMATS, formatOfStoredMode, type DeliberationMode, type FormatId } from "../state/formats.js";
import { participantsFor, resolveParticipant } from "../state/participants.js";
import { MAX_MESSAGE_CHARS, userText } from "../state/text.js";
import { parseJsonBody, postOnly, streamRun, type ChatRouteDeps } from "./chat.js";
import { quotaKeyOf, userOf } from "./auth.js";
import { participantsRefused } from "./errors.js";
import { checkFollowUp } from "./follow-up.js";

/** A format's model list; errors like `Vote mode requires at least 3 models`, `Maximum 7 models allowed`. */
function modelList(format: FormatId, label: string, noun = "models") {
  const { min, max } = FORMATS[format].participants;
  return z
    .array(z.string().min(1, "a model id is empty"))
    .min(min, `${label} mode requires at least ${min} ${noun}`)
    .max(max, `Maximum ${max} ${noun} allowed`)
    .optional();
}

/**
 * The formats this endpoint runs, each under its stored mode: a request body
 * (`{question, mode, conversationId?, modeConfig?}`) made strict, so a misspelt field is refused,
 * not ignored. `modeConfig` is the format's options (its definition's schema) with its models,
 * under the names the endpoint gives them (/vote's `councilModels` and `chairmanModel`).
 */
export const ENDPOINT_FORMATS = DEFINED_FORMATS.flatMap((format) => {
  const { deliberate, options }: FormatDefinition = FORMAT_DEFINITIONS[format];
  if (!deliberate) return [];
  const renamed = deliberate.renamed ?? {};
  const shape: Record<string, z.ZodType> = { [deliberate.modelsField ?? "models"]: modelList(format, deliberate.label, deliberate.noun) };
  for (const [name, option] of Object.entries(options.shape)) shape[Object.keys(renamed).find((field) => renamed[field] === name) ?? name] = option;
  const schema = z
    .object({
      question: userText("question", MAX_MESSAGE_CHARS),
      mode: z.literal(FORMATS[format].storedMode),
      conversationId: z.string().optional(),
      modeConfig: z.object(shape).strict().optional(),
    })
    .strict();
  return [{ format, schema, modelsField: deliberate.modelsField ?? "models", renamed }];
});

/** The request's mode names ("debate" is the stored name of /revise). */
const MODES = ENDPOINT_FORMATS.map((f) => FORMATS[f.format].storedMode);

/** A request body of the deliberate endpoint, by mode. */
const deliberateSchema = z.discriminatedUnion("mode", ENDPOINT_FORMATS.map((f) => f.schema) as unknown as [(typeof ENDPOINT_FORMATS)[number]["schema"]], {
  error: (issue) => (issue.code === "invalid_union" ? `mode must be one of: ${MODES.join(", ")}` : undefined),
});

/** A request's `modeConfig` as the run's format options: the models and each option under its own name. */
function modeConfigOf(mode: string, modeConfig: Record<string, unknown> | undefined): FormatOptions {
  const endpoint = ENDPOINT_FORMATS.find((f) => FORMATS[f.format].storedMode === mode)!;
  const options: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(modeConfig ?? {})) {
    if (value === undefined) continue;
    options[field === endpoint.modelsField ? "models" : (endpoint.renamed[field] ?? field)] = value;
  }
  return options;
}

/**
 * `POST /api/v1/deliberate/stream`: a request body (`{question, mode, conversationId?,
 * modeConfig}`, validated with the schemas above; a mode of each format the endpoint runs)
 * runs that format and streams its events as SSE, with kebab-case names, like the chat stream.
 */
export function deliberateRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  router.post("/api/v1/deliberate/stream", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, deliberateSchema, '{"question": "…", "mode": "vote"}');
    const mode = formatOfStoredMode(body.mode) as DeliberationMode;
    const user = userOf(res);
    if (body.conversationId !== undefined) await checkFollowUp(deps.service, user, body.conversationId, mode);
    const modeConfig = modeConfigOf(body.mode, body.modeConfig);
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
