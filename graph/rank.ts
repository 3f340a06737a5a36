import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { NodeDeps } from "../ports/node-deps.js";
import { makeDeliberationAnswer } from "../nodes/deliberation/deliberation-answer.js";
import { makeDeliberationTitle, makeTitleDraft } from "../nodes/deliberation/deliberation-title.js";
import { rankingTasks } from "../nodes/rank/lib/tasks.js";
import { rankAggregate } from "../nodes/rank/rank-aggregate.js";
import { makeRankAnonymize } from "../nodes/rank/rank-anonymize.js";
import { makeRankChairman } from "../nodes/rank/rank-chairman.js";
import { makeRankPlanner } from "../nodes/rank/rank-planner.js";
import { makeRankRanking } from "../nodes/rank/rank-ranking.js";
import { RankState, type RankStateType } from "../state/rank.js";
import { FormatInput } from "../state/shared.js";
import { answering } from "./answers.js";
import { answersRoute, taskNode } from "./tasks.js";

const answers = answersRoute("rank");

/**
 * After the planner: the first answers, in parallel, with a new conversation's title beside them
 * (llm-council writes it then too); or the end (a refused request).
 */
export function routeToAnswers(state: RankStateType): (Send | "deliberation_title_draft")[] | typeof END {
  const sends = answers(state);
  return sends === END || state.conversation_title ? sends : [...sends, "deliberation_title_draft"];
}

/** After anonymisation: one ranking per model that answered (in parallel), or the end (too few answers). */
export function routeToRankings(state: RankStateType): Send[] | typeof END {
  if (state.error) return END;
  return rankingTasks(state).map((task) => new Send("rank_ranking", task));
}

/** After the chairman: the title, or the end when it failed with no ranking to stand in. */
export function routeAfterChairman(state: RankStateType): "deliberation_title" | typeof END {
  return state.error ? END : "deliberation_title";
}

/**
 * The /rank subgraph, on its own state: rank_planner → deliberation_answer ×N (Send), with
 * deliberation_title_draft beside them → rank_anonymize → rank_ranking ×N (Send) → rank_aggregate → rank_chairman → deliberation_title.
 * The chairman's answer (or the top-ranked one standing in) is the run's `answer`.
 */
export function buildRankGraph(deps: NodeDeps) {
  return new StateGraph({ state: RankState, input: FormatInput })
    .addNode("rank_planner", makeRankPlanner(deps))
    .addNode("deliberation_answer", taskNode(makeDeliberationAnswer(deps)))
    .addNode("rank_anonymize", makeRankAnonymize(deps))
    .addNode("rank_ranking", taskNode(makeRankRanking(deps)))
    .addNode("rank_aggregate", rankAggregate)
    .addNode(
      "rank_chairman",
      answering(makeRankChairman(deps), (update) => update.final?.answer),
    )
    .addNode("deliberation_title_draft", makeTitleDraft(deps))
    .addNode("deliberation_title", makeDeliberationTitle(deps))
    .addEdge(START, "rank_planner")
    .addConditionalEdges("rank_planner", routeToAnswers, ["deliberation_answer", "deliberation_title_draft", END])
    .addEdge("deliberation_answer", "rank_anonymize")
    .addConditionalEdges("rank_anonymize", routeToRankings, ["rank_ranking", END])
    .addEdge("rank_ranking", "rank_aggregate")
    .addEdge("rank_aggregate", "rank_chairman")
    .addConditionalEdges("rank_chairman", routeAfterChairman, ["deliberation_title", END])
    .addEdge("deliberation_title", END)
    .compile({ name: "rank" });
}
