import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import { withSources } from "../../state/answer.js";
import type { CompareStateType, CompareUpdate } from "../../state/compare.js";

/**
 * compare_complete: all answers are in; says how many answered and how many failed. The run's
 * answer is the answers that came, each under its participant's name with its sources linked. When none came the run
 * failed, and says so (`all_models_failed`).
 */
export async function compareComplete(state: CompareStateType, config: LangGraphRunnableConfig): Promise<CompareUpdate> {
  const ok = state.answers.filter((a) => a.status === "ok");
  emit(config, "compare_complete", { answered: ok.length, failed: state.answers.length - ok.length });
  if (ok.length === 0) emit(config, "error", { code: "all_models_failed", message: "No model answered the question: every one of them failed or timed out." });
  return { answer: ok.map((a) => `### ${a.display}\n\n${withSources(a.text, a.sources)}`).join("\n\n") };
}
