import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import type { Ballot, VoteTask } from "../../state/debate.js";
import { invokeText, rethrowIfCancelled, withTimeout } from "../shared/model-call.js";
import { participantConversation } from "./lib/conversation.js";
import { parseVote } from "../../state/replies/debate-vote.js";
import { isPerson } from "../../state/person.js";
import { askPerson, personBallot } from "./lib/person.js";

/**
 * debate_vote's call for one participant: their vote in round 4 (the node makes one such call
 * per participant, in parallel). The call is bounded by the per-vote timeout and by what is left
 * of the whole round's (a resumed run's votes, whose round deadline passed while the process was
 * down, get a fresh one).
 * A valid ballot is announced with `debate_vote_result`; an invalid one (names nobody, empty,
 * unparsable, failed) is kept in state with its reason and never emitted.
 */
export function makeDebateBallot(deps: NodeDeps) {
  return async function debateBallot(task: VoteTask, config: LangGraphRunnableConfig): Promise<{ debate_votes: Ballot[] }> {
    const ctx = await deps.context(config);
    const { voter, participants, topic } = task;
    const candidates = participants.map((p) => p.display).filter((d) => d !== voter.display);
    // The person who joined casts their own vote: the round waits for it (the models vote meanwhile).
    if (isPerson(voter))
      return {
        debate_votes: [
          personBallot(config, voter, askPerson(config, { kind: "vote", round: 4, participant: voter.display, candidates }, ctx.run.personTimeoutMs)),
        ],
      };
    // Every vote starts in the step that set the round's deadline, so one that starts after it
    // belongs to a run resumed from its checkpoint (after a crash): it gets a fresh vote timeout.
    const left = task.deadline - Date.now();
    const budget = left > 0 ? Math.min(ctx.run.voteTimeoutMs, left) : ctx.run.voteTimeoutMs;
    const base = { voter: voter.display, voter_key: voter.key, motivation: "", bullets: [] as string[] };
    let ballot: Ballot;
    try {
      const raw = await withTimeout(budget, config.signal, (signal) => {
        // The voter's whole debate as its growing conversation (the answers arrive already cut).
        const debate = { ...task.debate, topic, participants, contextChars: Number.MAX_SAFE_INTEGER };
        const messages = participantConversation(ctx, debate, voter, 4, { candidates });
        const model = deps.models.create({ phase: "vote", participant: voter, round: 4, topic, candidates, reasoning: ctx.run.reasoning });
        return invokeText(model, messages, signal);
      });
      const parsed = parseVote(raw, participants);
      ballot = parsed.ok
        ? { ...base, voted_for: parsed.vote.voted_for, motivation: parsed.vote.motivation, bullets: parsed.vote.bullets, valid: true }
        : { ...base, voted_for: null, valid: false, invalid_reason: parsed.reason };
    } catch (err) {
      rethrowIfCancelled(err);
      ballot = { ...base, voted_for: null, valid: false, invalid_reason: (err as Error).message };
    }
    if (ballot.valid) {
      emit(config, "debate_vote_result", {
        voter: ballot.voter,
        voted_for: ballot.voted_for!,
        motivation: ballot.motivation,
        bullets: ballot.bullets,
      });
    } else {
      ctx.log(`vote of ${voter.display} dropped: ${ballot.invalid_reason}`);
    }
    return { debate_votes: [ballot] };
  };
}
