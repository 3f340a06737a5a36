import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { State, StateUpdate } from "../../state/graph-state.js";

/** compare_complete: all answers are in; says how many answered and how many failed. */
export async function compareComplete(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
  const answered = state.compare_answers.filter((a) => a.status === "ok").length;
  emit(config, "compare_complete", { answered, failed: state.compare_answers.length - answered });
  return {};
}
