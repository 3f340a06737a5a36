import * as C from "./compare.js";
import * as D from "./debate.js";
import * as CO from "./council.js";
import * as O from "./openai.js";
import * as DP from "./deep.js";
import * as R from "./revise.js";
import * as V from "./vote.js";

/** One placeholder a prompt may use; a required one must appear in every override. */
export interface Placeholder {
  name: string;
  required: boolean;
  description: string;
}

/** A registered prompt: its key, what it is for, its placeholders and its default text. */
export interface PromptDefinition {
  key: string;
  description: string;
  placeholders: Placeholder[];
  default: string;
}

const req = (name: string, description: string): Placeholder => ({ name, required: true, description });
const opt = (name: string, description: string): Placeholder => ({ name, required: false, description });

const P = {
  topic: (r = false) => (r ? req : opt)("topic", "the debate topic"),
  context: req("context", "the context chain: topic, earlier rounds, this round so far"),
  wordLimit: opt("word_limit", "the round's word limit"),
  participant: (r = false) => (r ? req : opt)("participant", "display name of the speaking participant"),
  participants: opt("participants", "display names of all participants"),
  participantCount: opt("participant_count", "number of participants"),
  date: (r = false) => (r ? req : opt)("date", "today's date, ISO 8601"),
  candidates: req("candidates", "display names one may vote for"),
  question: (r = true) => (r ? req : opt)("question", "the user's question"),
  responses: req("responses", "the anonymised answers, each as `--- Response X ---` and its text"),
  ownResponse: req("own_response", "the model's own first answer"),
  otherResponses: req("other_responses", "the other models' answers, anonymised as `--- Response X ---` and the text"),
  debaters: req("other_responses", "the other debaters' answers, each as `### Debater X`, the text and `---`"),
  previousRound: opt("previous_round", "round 2 on: `## Previous Round Arguments` with each debater's last argument (empty in round 1)"),
};

const roundPrompt = (key: string, description: string, text: string): PromptDefinition => ({
  key,
  description,
  placeholders: [P.context, P.wordLimit, P.topic(), P.participant()],
  default: text,
});
const votePrompt = (key: string, description: string, text: string): PromptDefinition => ({
  key,
  description,
  placeholders: [P.context, P.candidates, P.participant(), P.topic()],
  default: text,
});

/** The 16 `debate.*` prompt keys of the /debatt family, then those of the other formats. */
export const PROMPTS: readonly PromptDefinition[] = [
  {
    key: "debate.supervisor.instructions",
    description: "Supervisor: system prompt of the normal chat route (messages that are not debate commands)",
    placeholders: [P.date()],
    default: D.DEBATE_SUPERVISOR_INSTRUCTIONS,
  },
  {
    key: "debate.domain_planner.system",
    description: "Domain planner: each external participant's role in the debate (its system prompt)",
    placeholders: [P.participant(true), P.participants, P.participantCount],
    default: D.DEFAULT_DEBATE_DOMAIN_PLANNER_PROMPT,
  },
  {
    key: "debate.mini_planner.system",
    description: "Mini-planner: plans OneSeek's web-search queries for a round (JSON)",
    placeholders: [
      P.topic(true),
      opt("round", "the round number"),
      P.date(),
      opt("max_queries", "most queries allowed"),
    ],
    default: D.DEFAULT_DEBATE_MINI_PLANNER_PROMPT,
  },
  {
    key: "debate.mini_critic.system",
    description: "Mini-critic: keeps the relevant search results for OneSeek (JSON)",
    placeholders: [P.topic()],
    default: D.DEFAULT_DEBATE_MINI_CRITIC_PROMPT,
  },
  {
    key: "debate.convergence.system",
    description: "Convergence: the model's analysis of agreements and disagreements (JSON)",
    placeholders: [P.topic(true), opt("winner", "the computed winner"), opt("vote_counts", "votes per participant")],
    default: D.DEFAULT_DEBATE_CONVERGENCE_PROMPT,
  },
  {
    key: "debate.analysis.system",
    description: "Synthesizer: the final analysis, streamed after the debate-arena-data block",
    placeholders: [
      P.topic(true),
      req("winner", "the computed winner"),
      opt("vote_counts", "votes per participant"),
      opt("summary", "the convergence summary"),
    ],
    default: D.DEFAULT_DEBATE_ANALYSIS_PROMPT,
  },
  {
    key: "debate.research.system",
    description: "Research: how OneSeek is given its kept web-search results",
    placeholders: [req("results", "the kept search results, one per line"), P.date()],
    default: D.DEFAULT_DEBATE_RESEARCH_PROMPT,
  },
  {
    key: "debate.oneseek.system",
    description: "OneSeek: system prompt of the internal participant (with today's date)",
    placeholders: [P.date(true), P.participants, P.participantCount],
    default: D.ONESEEK_DEBATE_SYSTEM_PROMPT,
  },
  roundPrompt("debate.round.1.introduction", "Round 1: introduction (≤300 words)", D.DEBATE_ROUND1_INTRO_PROMPT),
  roundPrompt("debate.round.2.argument", "Round 2: argument (≤500 words)", D.DEBATE_ROUND2_ARGUMENT_PROMPT),
  roundPrompt("debate.round.3.deepening", "Round 3: deepening (≤500 words)", D.DEBATE_ROUND3_DEEPENING_PROMPT),
  votePrompt("debate.round.4.voting", "Round 4: the vote (JSON)", D.DEBATE_ROUND4_VOTING_PROMPT),
  roundPrompt("debate.oneseek.round.1", "OneSeek round 1", D.ONESEEK_DEBATE_ROUND1_PROMPT),
  roundPrompt("debate.oneseek.round.2", "OneSeek round 2", D.ONESEEK_DEBATE_ROUND2_PROMPT),
  roundPrompt("debate.oneseek.round.3", "OneSeek round 3", D.ONESEEK_DEBATE_ROUND3_PROMPT),
  votePrompt("debate.oneseek.round.4", "OneSeek round 4: the vote (JSON)", D.ONESEEK_DEBATE_ROUND4_PROMPT),
  {
    key: "compare.answer.system",
    description: "/compare: each model's system prompt; the answers are shown side by side",
    placeholders: [P.participant(true), P.date()],
    default: C.COMPARE_ANSWER_SYSTEM,
  },
  {
    key: "deliberation.answer.system",
    description: "/vote, /revise and /deep: system prompt of each model's first answer",
    placeholders: [P.date()],
    default: V.DELIBERATION_ANSWER_SYSTEM,
  },
  {
    key: "deliberation.continue.system",
    description: "Any format: system prompt of a follow-up to one participant of a finished run, which goes on from what it said there",
    placeholders: [P.participant(true), opt("format", "the run's format, e.g. /vote"), P.date()],
    default: V.DELIBERATION_CONTINUE_SYSTEM,
  },
  {
    key: "deliberation.title",
    description: "The deliberation formats: the conversation title (3–5 words) from the first question",
    placeholders: [P.question()],
    default: V.DELIBERATION_TITLE,
  },
  {
    key: "vote.ballot",
    description: "/vote: each model votes for one anonymised answer, ending with `VOTE: Response X`",
    placeholders: [P.question(), P.responses],
    default: V.VOTE_BALLOT,
  },
  {
    key: "vote.tiebreaker",
    description: "/vote: the chairman picks one of the tied answers (`VOTE: Response X`)",
    placeholders: [P.question(false), P.responses],
    default: V.VOTE_TIEBREAKER,
  },
  {
    key: "revise.revision",
    description: "/revise: each model sees its own answer and the others' (anonymised) and decides REVISE, STAND or MERGE",
    placeholders: [P.question(), P.ownResponse, P.otherResponses],
    default: R.REVISE_REVISION,
  },
  {
    key: "revise.restate",
    description: "/revise with anti-anchoring: first turn, the model restates its own position before seeing the others",
    placeholders: [P.question(), P.ownResponse],
    default: R.REVISE_RESTATE,
  },
  {
    key: "revise.revision.anti_anchoring",
    description: "/revise with anti-anchoring: second turn, the others' answers and the evidence bar for changing",
    placeholders: [P.otherResponses],
    default: R.REVISE_REVISION_ANTI_ANCHORING,
  },
  {
    key: "revise.ballot",
    description: "/revise: each model votes for one anonymised revised answer, ending with `VOTE: Response X`",
    placeholders: [P.question(), P.responses],
    default: R.REVISE_BALLOT,
  },
  {
    key: "deep.debater",
    description: "/deep: a debater's round, answered as JSON (stance, key_points, counterpoints, revision, revised_position, confidence)",
    placeholders: [P.question(), P.ownResponse, P.debaters, P.previousRound],
    default: DP.DEEP_DEBATER,
  },
  {
    key: "deep.moderator",
    description: "/deep: the moderator's JSON assessment of a round (agreement_score, new_points_ratio, …)",
    placeholders: [
      P.question(),
      req("round_number", "the round just argued (1-based)"),
      req("max_rounds", "the most rounds of this debate"),
      req("arguments", "this round's arguments: stance, confidence, revision and key points per debater"),
    ],
    default: DP.DEEP_MODERATOR,
  },
  {
    key: "deep.synthesis",
    description: "/deep: the final answer, written from the debate's output object (its last stage)",
    placeholders: [P.question(), req("debate_output", "the debate's output object as JSON: rounds, final stances, convergence, log")],
    default: DP.DEEP_SYNTHESIS,
  },
  {
    key: "council.judge.system",
    description: "/council: each judge's system prompt (its perspective), ending with the JSON verdict block",
    placeholders: [
      req("judge", "the judge's name, e.g. `judge-1 (correctness)`"),
      req("perspective", "the judge's perspective, e.g. `correctness`"),
      opt("perspective_focus", "what that perspective looks for"),
      P.date(),
    ],
    default: CO.COUNCIL_JUDGE_SYSTEM,
  },
  {
    key: "council.packet",
    description: "/council: what every judge is asked to validate (round 1)",
    placeholders: [req("claim", "the claim or text to validate")],
    default: CO.COUNCIL_PACKET,
  },
  {
    key: "council.round2.disagreed",
    description: "/council --debate: round 2 after a split round 1 (steel-man the other side; anti-anchoring)",
    placeholders: [req("other_verdicts", "the other judges' full round-1 JSON verdicts")],
    default: CO.COUNCIL_ROUND2_DISAGREED,
  },
  {
    key: "council.round2.agreed",
    description: "/council --debate: round 2 after a unanimous round 1 (steel-man the case against; anti-anchoring)",
    placeholders: [req("other_verdicts", "the other judges' full round-1 JSON verdicts")],
    default: CO.COUNCIL_ROUND2_AGREED,
  },
  {
    key: "council.report",
    description: "/council: the consolidated report from the final verdicts",
    placeholders: [req("claim", "the claim or text validated"), req("consolidation", "the final verdicts and their consolidation, as JSON")],
    default: CO.COUNCIL_REPORT,
  },
  {
    key: "openai.json_result",
    description: "The OpenAI-compatible API: a run's answer written as the JSON its client asked for (response_format)",
    placeholders: [req("answer", "the run's answer, as the person would read it"), req("schema", "the JSON Schema asked for (an object of any keys for json_object)")],
    default: O.JSON_RESULT,
  },
];

/** A registered prompt key. */
export type PromptKey = (typeof PROMPTS)[number]["key"];

const BY_KEY = new Map(PROMPTS.map((p) => [p.key, p]));

/** The definition of a key, or undefined for an unknown key. */
export function promptDefinition(key: string): PromptDefinition | undefined {
  return BY_KEY.get(key);
}

/** The round prompt key of a participant's turn (rounds 1–4; OneSeek has its own). */
export function roundPromptKey(round: number, oneseek: boolean): string {
  if (oneseek) return `debate.oneseek.round.${round}`;
  return ["", "debate.round.1.introduction", "debate.round.2.argument", "debate.round.3.deepening", "debate.round.4.voting"][round];
}
