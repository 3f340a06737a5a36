import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { formatOfCommand, parseCommand } from "../state/commands.js";
import { type Settings } from "../state/config.js";
import { runSettingsResolver } from "../state/run-config.js";
import { estimateRun } from "../state/estimate.js";
import { participantsFor } from "../state/participants.js";
import { MAX_MESSAGE_CHARS, userText } from "../state/text.js";
import { spokenWordLimits, voiceSettingsOr, type VoiceSettings } from "../state/voice.js";
import { parseJsonBody, participantsField, postOnly } from "./chat.js";
import { HttpError, participantsRefused } from "./errors.js";

/** The body: a message as the chat stream takes it, and optionally its participants. */
const EstimateBody = z
  .object(
    {
      message: userText("message", MAX_MESSAGE_CHARS),
      participants: participantsField,
    },
    { error: "the body must be a JSON object" },
  )
  .strict();

/**
 * `POST /api/v1/estimate` `{message, participants?}`: what the run the message would start is
 * expected to use and cost (calls, tokens, USD by the price table), before it is started. The
 * message is refused as the chat stream would refuse it (a command without its topic, an unknown
 * option, participants the format cannot take).
 */
export function estimateRouter(settings: Settings, options: { simulated: boolean; research: boolean; voiceSettings?: () => Promise<VoiceSettings> }): Router {
  const router = Router();
  const defaults = runSettingsResolver(settings)({});
  // A spoken debate's rounds have the voice settings' word limits (the defaults when they cannot be read), as its run will.
  const spokenLimits = async () => spokenWordLimits(await voiceSettingsOr(options.voiceSettings));
  router.post("/api/v1/estimate", async (req: Request, res: Response) => {
    const body = parseJsonBody(req, EstimateBody, '{"message": "/vote Which database for a small shop?"}');
    const command = parseCommand(body.message);
    if (command.kind === "missing_topic") throw new HttpError(400, "missing_topic", `${command.command} needs its topic or question after it`);
    if (command.kind === "bad_option") throw new HttpError(400, "unknown_option", `unknown option ${command.option} for ${command.command}`);
    const format = formatOfCommand(command) ?? "chat";
    let participants;
    try {
      participants = format === "chat" ? [] : participantsFor(format, settings.roster, body.participants, settings.allowedModels);
    } catch (err) {
      throw participantsRefused(err);
    }
    const question = "question" in command ? command.question : command.kind === "chat" ? command.text : command.topic;
    const flags = command.kind === "deliberation" ? command.options : {};
    const estimate = estimateRun(
      format,
      participants,
      {
        question,
        internalModel: settings.oneseekModel,
        contextChars: defaults.contextChars,
        maxRounds: defaults.options.maxRounds,
        debate: flags.debate ?? defaults.options.debate,
        research: options.research,
        ...(format === "dvoice" ? { wordLimits: await spokenLimits() } : {}),
      },
      settings.prices,
    );
    res.json({ format, participants: participants.map((p) => p.key), simulated: options.simulated, max_cost_usd: settings.maxCostUsd ?? null, ...estimate });
  });
  router.all("/api/v1/estimate", postOnly);
  return router;
}
