import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunContext } from "../../../ports/node-deps.js";

/** The answers a later layer reads, unnamed and numbered as Mixture-of-Agents gives them (`1. …`). */
export function numberedReferences(texts: readonly string[]): string {
  return texts.map((text, i) => `${i + 1}. ${text.trim()}`).join("\n\n");
}

/**
 * What a proposer of a later layer, or the aggregator, is sent: the answer's system prompt with
 * the aggregate-and-synthesize instruction and the references after it, then the question (as
 * togethercomputer/MoA adds the references to the system message).
 */
export function withReferences(ctx: RunContext, question: string, references: readonly string[]): BaseMessage[] {
  const system = ctx.prompts.render("deliberation.answer.system", { date: ctx.today() });
  const synthesize = ctx.prompts.render("moa.synthesize", { responses: numberedReferences(references), question });
  return [new SystemMessage(`${system}\n\n${synthesize}`), new HumanMessage(question)];
}
