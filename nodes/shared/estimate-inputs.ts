import type { NodeDeps } from "../../ports/node-deps.js";
import type { RunSettings } from "../../state/run-config.js";
import type { EstimateInputs } from "../../state/estimate.js";

/** What a run's estimate depends on besides its format and participants: its question and settings. */
export function estimateInputsOf(question: string, run: RunSettings, deps: Pick<NodeDeps, "internalModel" | "search">): EstimateInputs {
  return {
    question,
    internalModel: deps.internalModel,
    ...(run.responseTokensAsked === undefined ? {} : { responseTokensAsked: run.responseTokensAsked }),
    contextChars: run.contextChars,
    maxRounds: run.options.maxRounds,
    debate: run.options.debate,
    research: deps.search !== undefined,
    ...(run.reasoning ? { reasoning: run.reasoning } : {}),
  };
}
