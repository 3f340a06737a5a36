import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { cleanTitle, shortTitle } from "../../state/replies/title.js";
import { invokeText, withTimeout } from "../shared/model-call.js";

/** The fallback title: the question, shortened at a word boundary with an ellipsis. */
export function titleFromQuestion(question: string): string {
  return cleanTitle(shortTitle(question));
}

/** What the title step reads. */
interface TitleInput {
  question: string;
  conversation_title: string | null;
  timeout_ms: number;
}

/**
 * deliberation_title: the last step of a deliberation format. A new conversation gets a 3–5
 * word title from the internal model (`title_complete`; the question's first words if the model
 * fails); a follow-up keeps its title. Then `complete`.
 */
export function makeDeliberationTitle(deps: NodeDeps) {
  return async function deliberationTitle(state: TitleInput, config: LangGraphRunnableConfig): Promise<{ conversation_title?: string }> {
    if (state.conversation_title) {
      emit(config, "complete", {});
      return {};
    }
    const ctx = await deps.context(config);
    const question = state.question;
    let title = "";
    try {
      const reply = await withTimeout(state.timeout_ms, config.signal, (signal) =>
        invokeText(deps.models.create({ phase: "title", topic: question }), [new HumanMessage(ctx.prompts.render("deliberation.title", { question }))], signal),
      );
      title = cleanTitle(reply);
    } catch (err) {
      if (config.signal?.aborted) throw err;
      ctx.log(`title generation failed, using the question's first words: ${(err as Error).message}`);
    }
    if (!title) title = titleFromQuestion(question);
    emit(config, "title_complete", { data: { title } });
    emit(config, "complete", {});
    return { conversation_title: title };
  };
}
