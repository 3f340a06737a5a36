import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { answerOf, inParticipantOrder, whoIs } from "../../state/deliberation.js";
import type { RankFinal, RankStateType } from "../../state/rank.js";
import { runIdentityNames } from "../shared/anonymity.js";
import { labelledResponses } from "../shared/labels.js";
import { streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";

/** Every ranking a model wrote, unnamed (`--- Ranking N ---` and its text); a failed model's has none. */
function rankingTexts(state: RankStateType): string {
  const written = inParticipantOrder(state, state.rankings, (r) => r.modelKey).filter((r) => !r.error && r.rankingText.trim() !== "");
  return written.map((r, i) => `--- Ranking ${i + 1} ---\n${r.rankingText.trim()}\n\n`).join("") || "(no model gave a ranking)\n\n";
}

/** The council's ranking as the chairman reads it: one line per answer, best first. */
function aggregateText(state: RankStateType): string {
  const places = state.aggregate?.ranking ?? [];
  if (places.length === 0) return "(no ranking could be read: weigh the answers yourself)";
  return places.map((p, i) => `${i + 1}. ${p.label}: mean place ${p.averagePosition} over ${p.rankings} ranking${p.rankings === 1 ? "" : "s"}`).join("\n");
}

/** What the chairman's step leaves: the final answer (the graph also makes it the run's `answer`), why the chairman failed, or why the run stopped. */
interface ChairmanUpdate {
  final?: RankFinal;
  /** Left unset here: the graph (`answering`) makes the final's text the run's answer and last message. */
  answer?: string;
  final_error?: string | null;
  error?: string;
}

/**
 * rank_chairman: the chairman reads every answer (under its label, authors unnamed), every
 * ranking's text and the council's ranking, and writes the run's answer, streamed as
 * `answer_delta` (stage `chairman`). If it fails, the top-ranked answer stands in, marked
 * `fallback` with why; with no valid ranking there is none to stand in, and the run stops with
 * `chairman_failed`. Emits `rank_final`.
 */
export function makeRankChairman(deps: NodeDeps) {
  return async function rankChairman(state: RankStateType, config: LangGraphRunnableConfig): Promise<ChairmanUpdate> {
    const ctx = await deps.context(config);
    const chairman = state.chairman!;
    const question = state.question;
    const prompt = ctx.prompts.render("rank.chairman", {
      question,
      responses: labelledResponses(state.labels, (key) => answerOf(state, key), runIdentityNames(state)),
      rankings: rankingTexts(state),
      aggregate: aggregateText(state),
    });
    const started = performance.now();
    const { text, error, usage } = await streamAnswer(ctx, config, {
      mode: "rank",
      stage: "chairman",
      who: whoIs(chairman),
      timeoutMs: state.timeout_ms,
      call: (signal, onDelta) => {
        const model = deps.models.create({ phase: "chairman", participant: chairman, topic: question, reasoning: ctx.run.reasoning });
        return streamMessage(model, [new HumanMessage(prompt)], signal, onDelta);
      },
    });
    const responseTimeMs = Math.round(performance.now() - started);
    // An empty reply is no answer: the top-ranked answer is worth more to the person asking.
    const failure = error ?? (text.trim() === "" ? "the chairman answered with nothing" : undefined);
    if (!failure) {
      const final: RankFinal = { answer: text, ...whoIs(chairman), fallback: false, responseTimeMs, ...(usage ? { usage } : {}) };
      emit(config, "rank_final", { data: final });
      return { final, final_error: null };
    }
    const top = state.aggregate?.ranking[0];
    if (!top) {
      const message = `The chairman (${chairman.display}) failed to write the answer, and no ranking could be read to stand in for it: ${failure}`;
      emit(config, "error", { code: "chairman_failed", message });
      return { error: message, final_error: failure };
    }
    ctx.log(`rank chairman failed, answering with the top-ranked answer (${top.label}, ${top.display}): ${failure}`);
    const final: RankFinal = {
      answer: answerOf(state, top.modelKey),
      model: top.model,
      display: top.display,
      modelKey: top.modelKey,
      fallback: true,
      error: failure,
      responseTimeMs,
      ...(usage ? { usage } : {}),
    };
    emit(config, "rank_final", { data: final });
    return { final, final_error: failure };
  };
}
