/**
 * The offline "simulated provider", used when no OPENAI_API_KEY is set: it answers every model
 * phase without a network. Its parts live in providers/simulated/: the question parser
 * (question.ts), the per-call context and writer (context.ts, writer.ts), each format's answers
 * (debatt.ts, vote.ts, deep.ts, council.ts, compare.ts, deliberation.ts, chat.ts), the evaluation's
 * task answers (eval.ts), the dispatcher (dispatch.ts) and the streaming chat model (model.ts).
 * Each format's definition (service/formats/) names its answers; the model gets them all.
 */
export type { PhaseAnswer, PhaseTable, SimulatedOptions } from "./simulated/context.js";
export { keywordsOf, termsOf, type Term } from "./simulated/question.js";
export { CORE_ANSWERS, simulatedAnswer } from "./simulated/dispatch.js";
export { SimulatedChatModel, SimulatedModelFactory } from "./simulated/model.js";
