import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { NodeDeps, RunContext } from "../../../ports/node-deps.js";
import { SEARCH_LIMITS, type SearchResult } from "../../../ports/models.js";
import type { Source } from "../../../state/answer.js";
import type { Participant } from "../../../state/participants.js";
import { parseResearchCheck, parseResearchPlan } from "../../../state/replies/research.js";
import { invokeText } from "../../shared/model-call.js";

/** Most web-search queries OneSeek may plan per turn. */
const MAX_QUERIES = 4;

/** Input of one OneSeek research step. */
export interface ResearchRequest {
  oneseek: Participant;
  topic: string;
  round: number;
  context: string;
  date: string;
  signal: AbortSignal;
}

/**
 * OneSeek's research before a turn (never wired up in the original): the mini-planner plans 0–4
 * queries, they are searched in parallel (≤3 results of ≤300 characters each, 15 s), the
 * mini-critic keeps the useful results, and the research prompt frames them as `[Tavily Result]
 * title: content` lines. Returns that prompt and the kept results as sources (the turn keeps them
 * with its answer), or null when there is nothing to add. Failures are logged and the turn goes on
 * without research.
 */
export async function researchForTurn(deps: NodeDeps, ctx: RunContext, req: ResearchRequest): Promise<{ prompt: string; sources: Source[] } | null> {
  const search = deps.search;
  if (!search) return null;
  try {
    const queries = await planQueries(deps, ctx, req);
    if (queries.length === 0) return null;
    const settled = await Promise.allSettled(queries.map((q) => search.search(q, { ...SEARCH_LIMITS, signal: req.signal })));
    for (const s of settled) if (s.status === "rejected") ctx.log(`OneSeek search failed: ${(s.reason as Error)?.message}`);
    const results = dedupe(settled.flatMap((s) => (s.status === "fulfilled" ? s.value : [])));
    if (results.length === 0) return null;
    const kept = await critique(deps, ctx, req, results);
    if (kept.length === 0) return null;
    const lines = kept.map((r) => `[Tavily Result] ${r.title}: ${r.content}`).join("\n");
    const sources = kept.map((r) => (r.title ? { url: r.url, title: r.title } : { url: r.url }));
    return { prompt: ctx.prompts.render("debate.research.system", { results: lines, date: req.date }), sources };
  } catch (err) {
    if (req.signal.aborted) throw err;
    ctx.log(`OneSeek research skipped: ${(err as Error).message}`);
    return null;
  }
}

async function planQueries(deps: NodeDeps, ctx: RunContext, req: ResearchRequest): Promise<string[]> {
  const model = deps.models.create({ phase: "research_plan", participant: req.oneseek, round: req.round, topic: req.topic });
  const system = ctx.prompts.render("debate.mini_planner.system", {
    topic: req.topic,
    round: req.round,
    date: req.date,
    max_queries: MAX_QUERIES,
  });
  const answer = await invokeText(model, [new SystemMessage(system), new HumanMessage(req.context)], req.signal);
  return parseResearchPlan(answer, MAX_QUERIES);
}

async function critique(deps: NodeDeps, ctx: RunContext, req: ResearchRequest, results: SearchResult[]): Promise<SearchResult[]> {
  const model = deps.models.create({ phase: "research_check", participant: req.oneseek, round: req.round, topic: req.topic });
  const system = ctx.prompts.render("debate.mini_critic.system", { topic: req.topic });
  const listing = results.map((r, i) => `${i}. ${r.title} (${r.url}): ${r.content}`).join("\n");
  const answer = await invokeText(model, [new SystemMessage(system), new HumanMessage(listing)], req.signal);
  const keep = parseResearchCheck(answer, results.length);
  // A critic that answers nothing usable keeps everything: the results were asked for.
  return keep ? keep.map((i) => results[i]) : results;
}

function dedupe(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => !seen.has(r.url) && (seen.add(r.url), true));
}
