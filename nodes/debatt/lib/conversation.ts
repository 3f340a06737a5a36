import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunContext } from "../../../ports/node-deps.js";
import { roundPromptKey } from "../../../prompts/registry.js";
import { ROUNDS } from "../../../state/debate.js";
import type { State } from "../../../state/graph-state.js";
import type { Participant } from "../../../state/participants.js";
import { answerLine, roundHeader, topicLine } from "./context-chain.js";

/** The debate as far as a participant's call needs it. */
export interface DebateSoFar {
  topic: string;
  participants: Participant[];
  /** Each spoken round's speaking order (participant keys). */
  orders: Record<number, string[]>;
  /** Each round's answers by display name, in the order they were given. */
  responses: Record<number, Record<string, string>>;
  /** Whether each round was answered by all at once (then a speaker saw none of its own round). */
  simultaneous: boolean;
  /** Characters of an answer shown. */
  contextChars: number;
  /** Word limit of each spoken round (1–3); absent in tasks checkpointed before there were any (the written debate's then). */
  wordLimits: number[] | undefined;
}

/** The debate so far as a sequential or simultaneous debate's state holds it, with each round's order. */
export function debateSoFar(
  state: Pick<State, "debate_topic" | "debate_participants" | "debate_round_responses" | "debate_word_limits" | "options">,
  orders: Record<number, string[]>,
  contextChars: number,
): DebateSoFar {
  return {
    topic: state.debate_topic ?? "",
    participants: state.debate_participants,
    orders,
    responses: state.debate_round_responses,
    simultaneous: state.options.order === "simultaneous",
    contextChars,
    wordLimits: state.debate_word_limits,
  };
}

/**
 * A participant's debate as one growing conversation, laid out so that each call begins with the
 * participant's previous call unchanged and adds what is new at the end: providers cache such a
 * repeated prefix and bill it at a fraction of the price.
 *
 *   system (the participant's role; the same in every call)
 *   user: the topic, the answers before its turn in round 1, round 1's instruction
 *   user: the answers since then (its own among them, the rest of round 1, round 2 before its turn), round 2's instruction
 *   …
 *   user: what is new, and the instruction of `round` (4: the vote, with `candidates`)
 *
 * Every answer, its own too, is shown cut to `contextChars` in the order given, under its
 * round's header, as the context chain always showed them: a call adds only what is new.
 */
export function participantConversation(
  ctx: RunContext,
  debate: DebateSoFar,
  participant: Participant,
  round: number,
  options: { candidates?: string[] } = {},
): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage(systemPrompt(ctx, participant, debate.participants))];
  const byKey = new Map(debate.participants.map((p) => [p.key, p.display]));
  let unseen: string[] = [topicLine(debate.topic)];
  let header = 0;
  const see = (r: number, answers: [string, string][]) => {
    for (const [name, text] of answers) {
      // Each user message names the round of the answers it shows, once.
      if (header !== r) unseen.push(roundHeader(r));
      header = r;
      unseen.push(answerLine(name, text, debate.contextChars));
    }
  };
  const ask = (r: number) => {
    messages.push(
      new HumanMessage(
        roundPrompt(ctx, participant, r, {
          context: unseen.join("\n"),
          topic: debate.topic,
          wordLimit: debate.wordLimits?.[r - 1] ?? ROUNDS[r - 1]?.words,
          candidates: options.candidates,
        }),
      ),
    );
    unseen = [];
    header = 0;
  };
  for (let r = 1; r <= Math.min(round, 3); r++) {
    const answers = Object.entries(debate.responses[r] ?? {});
    // What it had seen of its own round when it spoke: nothing when all answered at once, else those before it.
    const before = debate.simultaneous ? 0 : countBefore(answers, debate.orders[r] ?? [], participant.key, byKey);
    see(r, answers.slice(0, before));
    ask(r);
    if (r === round) return messages;
    see(r, answers.slice(before));
  }
  ask(4);
  return messages;
}

/** How many of a round's answers (in the order given) came from speakers before `key` in the round's order. */
function countBefore(answers: [string, string][], order: string[], key: string, byKey: Map<string, string>): number {
  const slot = order.indexOf(key);
  if (slot < 0) return answers.length;
  const earlier = new Set(order.slice(0, slot).map((k) => byKey.get(k)));
  return answers.filter(([name]) => earlier.has(name)).length;
}

/** The participant's system prompt: the domain planner's role for an external model, OneSeek's own prompt with today's date. */
function systemPrompt(ctx: RunContext, p: Participant, participants: Participant[]): string {
  const names = participants.map((x) => x.display).join(", ");
  return p.oneseek
    ? ctx.prompts.render("debate.oneseek.system", { date: ctx.today(), participants: names, participant_count: participants.length })
    : ctx.prompts.render("debate.domain_planner.system", { participant: p.display, participants: names, participant_count: participants.length });
}

/** A round's prompt (1–3: the turn, 4: the vote) around what is new for the participant. */
function roundPrompt(ctx: RunContext, p: Participant, round: number, v: { context: string; topic: string; wordLimit?: number; candidates?: string[] }): string {
  return ctx.prompts.render(roundPromptKey(round, p.oneseek === true), {
    context: v.context,
    topic: v.topic,
    participant: p.display,
    word_limit: v.wordLimit ?? "",
    candidates: (v.candidates ?? []).join(", "),
  });
}
