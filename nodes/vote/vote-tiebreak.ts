import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import { answerOf, whoIs } from "../../state/deliberation.js";
import type { TiebreakerResult, VoteStateType, VoteUpdate } from "../../state/vote.js";
import { parseLetterVote } from "../../state/replies/letter-vote.js";
import { streamMessage } from "../shared/model-call.js";
import type { Usage } from "../../state/usage.js";
import { streamAnswer } from "../shared/streamed-answer.js";
import { runIdentityNames } from "../shared/anonymity.js";
import { labelledResponses } from "../shared/labels.js";

/** Chairman calls before falling back to the first tied label: the first and one retry. */
const TIEBREAK_ATTEMPTS = 2;

/**
 * vote_tiebreak: the chairman sees only the tied answers with their vote counts and picks one.
 * An unparsable pick (or one outside the tie) is asked again once with the same prompt; after
 * that the first tied label alphabetically wins. A chairman that fails or times out stops the
 * run with `error` and no winner.
 */
export function makeVoteTiebreak(deps: NodeDeps) {
  return async function voteTiebreaker(state: VoteStateType, config: LangGraphRunnableConfig): Promise<VoteUpdate> {
    const ctx = await deps.context(config);
    const round = state.tally!;
    const chairman = state.chairman!;
    const tied = [...round.tiedLabels].sort();
    emit(config, "tiebreaker_start", { tiedLabels: tied });
    const question = state.question;
    const labels = Object.fromEntries(tied.map((l) => [l, state.labels[l]]));
    const prompt = ctx.prompts.render("vote.tiebreaker", {
      question,
      responses: labelledResponses(labels, (key) => answerOf(state, key), runIdentityNames(state), round.tallies),
    });
    const started = performance.now();
    let text = "";
    let usage: Usage | undefined;
    for (let attempt = 1; attempt <= TIEBREAK_ATTEMPTS; attempt++) {
      const answer = await streamAnswer(ctx, config, {
        mode: "vote",
        stage: "tiebreaker",
        who: whoIs(chairman),
        timeoutMs: state.timeout_ms,
        call: (signal, onDelta) => {
          const model = deps.models.create({ phase: "tiebreaker", participant: chairman, topic: question, candidates: tied, reasoning: ctx.run.reasoning });
          return streamMessage(model, [new HumanMessage(prompt)], signal, onDelta);
        },
      });
      if (answer.error) {
        const message = `The chairman (${chairman.display}) failed to break the tie: ${answer.error}`;
        emit(config, "error", { code: "chairman_failed", message });
        return { error: message };
      }
      text = answer.text;
      usage = answer.usage;
      const pick = parseLetterVote(text);
      if (pick && tied.includes(pick)) return { tiebreaker: result(pick, attempt, false) };
    }
    return { tiebreaker: result(tied[0], TIEBREAK_ATTEMPTS, true) };

    function result(votedFor: string, attempts: number, fallback: boolean): TiebreakerResult {
      const data: TiebreakerResult = {
        model: chairman.model,
        voteText: text,
        votedFor,
        responseTimeMs: Math.round(performance.now() - started),
        attempts,
        fallback,
        ...(usage ? { usage } : {}),
      };
      emit(config, "tiebreaker_complete", { data });
      return data;
    }
  };
}
