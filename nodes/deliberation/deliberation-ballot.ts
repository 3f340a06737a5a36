import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { whoIs, type VoteResponse } from "../../state/deliberation.js";
import type { DeliberationMode } from "../../state/formats.js";
import type { Participant } from "../../state/participants.js";
import { namesMentioned } from "../shared/anonymity.js";
import { parseLetterVote } from "../../state/replies/letter-vote.js";
import { streamMessage } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";

/** One voter's call in deliberation_ballot: the voter and what every voter is shown. */
export interface BallotTask {
  mode: DeliberationMode;
  /** The voting prompt's registry key (`{question}`, `{responses}`). */
  promptKey: string;
  voter: Participant;
  question: string;
  /** The anonymised answers, rendered once for all voters. */
  responses: string;
  /** The labels in play, e.g. Response A–D. */
  labels: string[];
  /** Names that would identify an author (for flagging the vote's text). */
  names: string[];
  timeoutMs: number;
}

/**
 * deliberation_ballot's call for one voter: the model reads the anonymised answers and votes
 * (the node makes one such call per voter, in parallel; /vote and /revise). The text is parsed
 * with `parseLetterVote`; a failed call or an unparsable text is an invalid vote, kept with its
 * text. A text that names a participant or vendor is flagged.
 */
export function makeDeliberationBallot(deps: NodeDeps) {
  return async function deliberationBallot(task: BallotTask, config: LangGraphRunnableConfig): Promise<{ ballots: VoteResponse[] }> {
    const ctx = await deps.context(config);
    const who = whoIs(task.voter);
    const started = performance.now();
    const { text, error, usage } = await streamAnswer(ctx, config, {
      mode: task.mode,
      stage: "vote",
      who,
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const prompt = ctx.prompts.render(task.promptKey, { question: task.question, responses: task.responses });
        const model = deps.models.create({
          phase: "ballot",
          participant: task.voter,
          topic: task.question,
          candidates: task.labels,
          reasoning: ctx.run.reasoning,
        });
        return streamMessage(model, [new HumanMessage(prompt)], signal, onDelta);
      },
    });
    const vote: VoteResponse = {
      ...who,
      voteText: text,
      votedFor: error ? null : parseLetterVote(text),
      responseTimeMs: Math.round(performance.now() - started),
      ...(error ? { error } : {}),
      anonymityBreach: namesMentioned(text, task.names, task.question),
      ...(usage ? { usage } : {}),
    };
    return { ballots: [vote] };
  };
}
