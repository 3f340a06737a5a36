import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { cleanTitle, shortTitle } from "../../state/replies/title.js";
import { invokeText, withTimeout } from "../shared/model-call.js";
import { askedOf } from "../../state/shared.js";

/** The fallback title: the question, shortened at a word boundary with an ellipsis. */
export function titleFromQuestion(question: string): string {
  return cleanTitle(shortTitle(question));
}

/** What the title steps read. */
interface TitleInput {
  question: string;
  /** The question as typed (the title is the question's, not the material's that came with it). */
  asked?: string;
  conversation_title: string | null;
  timeout_ms: number;
  /** The title written beside the first answers (/rank), when it was. */
  drafted_title?: string | null;
}

/** A new conversation's title from the internal model, or the question's first words if it fails. */
async function writeTitle(deps: NodeDeps, state: TitleInput, config: LangGraphRunnableConfig): Promise<string> {
  const ctx = await deps.context(config);
  const question = askedOf(state);
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
  return title || titleFromQuestion(question);
}

/**
 * deliberation_title: the last step of a deliberation format. A new conversation gets a 3–5
 * word title from the internal model (`title_complete`; the question's first words if the model
 * fails), or the one drafted beside the first answers; a follow-up keeps its title. Then `complete`.
 */
export function makeDeliberationTitle(deps: NodeDeps) {
  return async function deliberationTitle(state: TitleInput, config: LangGraphRunnableConfig): Promise<{ conversation_title?: string }> {
    if (state.conversation_title) {
      emit(config, "complete", {});
      return {};
    }
    const title = state.drafted_title || (await writeTitle(deps, state, config));
    emit(config, "title_complete", { data: { title } });
    emit(config, "complete", {});
    return { conversation_title: title };
  };
}

/**
 * deliberation_title_draft: a new conversation's title, written while the first answers are (as
 * llm-council does), so that the run's end does not wait for it. It is told at the end, by
 * deliberation_title, in its usual place. A follow-up has its title and drafts none.
 */
export function makeTitleDraft(deps: NodeDeps) {
  return async function titleDraft(state: TitleInput, config: LangGraphRunnableConfig): Promise<{ drafted_title?: string }> {
    if (state.conversation_title) return {};
    return { drafted_title: await writeTitle(deps, state, config) };
  };
}
