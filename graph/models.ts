import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Participant } from "../state/participants.js";

/** What a model is asked to do; fakes and the simulated provider key their behaviour on it. */
export type ModelPhase =
  | "turn"
  | "vote"
  | "convergence"
  | "synthesis"
  | "supervisor"
  | "research_plan"
  | "research_check";

/** A request for a chat model. */
export interface ModelRequest {
  phase: ModelPhase;
  /** The participant who speaks or votes; absent for the internal model's own tasks. */
  participant?: Participant;
  /** Round 1–4 for turns and votes. */
  round?: number;
  /** The debate topic (or the chat message), e.g. for the simulated provider's language. */
  topic?: string;
  /** Display names a voter may choose from (vote phase). */
  candidates?: string[];
  /** Token budget of the answer. */
  maxTokens?: number;
}

/**
 * Gives nodes their chat models. Injected into the graph (never a module-level instance), so tests
 * pass scripted fakes and the product passes the OpenAI-compatible or the simulated provider.
 */
export interface ModelFactory {
  /** True when no real provider is configured and answers are simulated offline. */
  readonly simulated: boolean;
  /** A chat model for the request; participant models for turns and votes, the internal one otherwise. */
  create(request: ModelRequest): BaseChatModel;
}

/** One web-search hit, already trimmed. */
export interface SearchResult {
  title: string;
  url: string;
  content: string;
}

/** Web search (Tavily) as the graph uses it. */
export interface SearchClient {
  search(query: string, options: { maxResults: number; maxChars: number; signal?: AbortSignal }): Promise<SearchResult[]>;
}
