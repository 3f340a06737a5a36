import type { ModelFactory } from "../ports/models.js";
import type { Settings } from "../state/config.js";
import { OpenAIModelFactory } from "./openai.js";
import { SimulatedModelFactory } from "./simulated.js";

/** Whether the settings name any key at all (the global one, the internal model's, a participant's own): then the models are real. */
export function realModels(settings: Settings): boolean {
  return Boolean(settings.openaiApiKey || settings.oneseekApiKey || Object.keys(settings.providerKeys).length);
}

/** The models the settings configure: the OpenAI-compatible provider with a key, else the simulated one. */
export function modelFactoryOf(settings: Settings): ModelFactory {
  return realModels(settings)
    ? new OpenAIModelFactory(settings)
    : new SimulatedModelFactory({
        latencyMs: settings.simulatedLatencyMs,
        chunkDelayMs: settings.simulatedChunkDelayMs,
        chunkTokens: settings.simulatedChunkTokens,
        accuracy: settings.simulatedAccuracy,
        roundWords: settings.simulatedRoundWords,
      });
}
