import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunContext } from "../../../ports/node-deps.js";
import type { Participant } from "../../../state/participants.js";
import { roundPromptKey } from "../../../prompts/registry.js";

/**
 * The messages a participant is sent for round 1–4: its system prompt (the domain planner's role
 * for external models; OneSeek's own prompt with today's date and any research) and the round
 * prompt with the context chain.
 */
export function participantMessages(
  ctx: RunContext,
  args: {
    participant: Participant;
    participants: Participant[];
    round: number;
    topic: string;
    context: string;
    wordLimit?: number;
    candidates?: string[];
    research?: string | null;
  },
): BaseMessage[] {
  const { participant: p, participants } = args;
  const names = participants.map((x) => x.display).join(", ");
  const system = p.oneseek
    ? ctx.prompts.render("debate.oneseek.system", {
        date: ctx.today(),
        participants: names,
        participant_count: participants.length,
      })
    : ctx.prompts.render("debate.domain_planner.system", {
        participant: p.display,
        participants: names,
        participant_count: participants.length,
      });
  const human = ctx.prompts.render(roundPromptKey(args.round, p.oneseek === true), {
    context: args.context,
    topic: args.topic,
    participant: p.display,
    word_limit: args.wordLimit ?? "",
    candidates: (args.candidates ?? []).join(", "),
  });
  return [new SystemMessage(args.research ? `${system}\n\n${args.research}` : system), new HumanMessage(human)];
}
