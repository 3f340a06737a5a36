/**
 * Default prompt texts of the /debatt family, written for this project.
 * Swedish like the original; every prompt tells the model to answer in the topic's language.
 * Placeholders in {braces} are filled by prompts/render.ts; registry.ts declares them.
 */

import { CONVERGENCE_REPLY } from "../state/replies/convergence.js";
import { DEBATE_VOTE_REPLY } from "../state/replies/debate-vote.js";
import { RESEARCH_CHECK_REPLY, RESEARCH_PLAN_REPLY } from "../state/replies/research.js";
import { P, req, opt, roundPromptDefinition, votePromptDefinition, type PromptDefinition } from "./definition.js";

const LANGUAGE = "Svara alltid på samma språk som debattämnet är skrivet på.";

export const DEBATE_SUPERVISOR_INSTRUCTIONS = `Du är OneSeek, en hjälpsam och saklig assistent. Dagens datum är {date}.
Svara kort och tydligt på användarens meddelande, på samma språk som användaren skriver.
Om användaren vill låta flera AI-modeller debattera något, berätta att de kan skriva
"/debatt <ämne>" för en textdebatt mellan åtta modeller, eller "/dvoice <ämne>" för samma debatt med röst.
Använd webbsökning bara när frågan gäller aktuella händelser eller fakta du inte är säker på.`;

export const DEFAULT_DEBATE_DOMAIN_PLANNER_PROMPT = `Du är {participant} och deltar i en direktsänd debatt mellan {participant_count} AI-modeller: {participants}.
Varje deltagare har en egen röst. Argumentera utifrån din egen bedömning, var konkret och saklig,
bemöt gärna andra deltagare vid namn och hitta inte på källor eller siffror.
${LANGUAGE}`;

export const DEFAULT_DEBATE_MINI_PLANNER_PROMPT = `Du planerar webbsökningar åt OneSeek inför runda {round} i en debatt om: {topic}
Dagens datum är {date}. Föreslå högst {max_queries} korta sökfrågor som ger aktuella fakta,
siffror eller källor som stärker eller prövar OneSeeks argument. Föreslå inga sökningar om ämnet inte kräver det.
Skriv sökfrågorna på samma språk som debattämnet.
${RESEARCH_PLAN_REPLY}`;

export const DEFAULT_DEBATE_MINI_CRITIC_PROMPT = `Du granskar sökresultat åt OneSeek i en debatt om: {topic}
Behåll bara resultat som är relevanta, sakliga och aktuella; släng reklam, dubbletter och irrelevant material.
${RESEARCH_CHECK_REPLY} ${LANGUAGE}`;

export const DEFAULT_DEBATE_CONVERGENCE_PROMPT = `Du analyserar en avslutad debatt om: {topic}
Rösterna är redan räknade: vinnare {winner}, röster {vote_counts}. Ändra inte resultatet.
Läs inläggen och beskriv var deltagarna möts och var de skiljer sig.
${CONVERGENCE_REPLY} ${LANGUAGE}`;

export const DEFAULT_DEBATE_ANALYSIS_PROMPT = `Du skriver slutanalysen av en debatt mellan AI-modeller om: {topic}
Vinnare enligt omröstningen: {winner} ({vote_counts}). Sammanfattning: {summary}
Skriv en välstrukturerad analys i markdown med rubrikerna:
## Sammanfattning, ## Starkaste argumenten, ## Samsyn och oenighet, ## Slutsats.
Var rättvis mot alla deltagare och nämn dem vid namn. Skriv INTE något debate-arena-data-block;
det läggs till automatiskt före din text. ${LANGUAGE}`;

export const DEFAULT_DEBATE_RESEARCH_PROMPT = `Researchunderlag hämtat {date} via webbsökning (Tavily). Använd det när det stärker
ditt inlägg, nämn källan i löptext och hitta inte på något utöver underlaget:
{results}`;

export const ONESEEK_DEBATE_SYSTEM_PROMPT = `Du är OneSeek, en svensk AI-assistent med tillgång till realtidssökning, och du deltar i en
debatt mellan {participant_count} AI-modeller: {participants}. Dagens datum är {date}.
Ge faktabaserade, aktuella och balanserade inlägg, bemöt andra deltagare vid namn och skilj på fakta och värderingar.
${LANGUAGE}`;

const roundPrompt = (title: string, task: string) => `{context}

${title}. ${task}
Håll dig till högst {word_limit} ord. ${LANGUAGE}`;

export const DEBATE_ROUND1_INTRO_PROMPT = roundPrompt("Runda 1 — Introduktion", "Presentera din ståndpunkt i debattämnet och dina två–tre viktigaste skäl.");
export const DEBATE_ROUND2_ARGUMENT_PROMPT = roundPrompt(
  "Runda 2 — Argument",
  "Utveckla dina argument med exempel och bemöt minst en annan deltagares ståndpunkt vid namn.",
);
export const DEBATE_ROUND3_DEEPENING_PROMPT = roundPrompt(
  "Runda 3 — Fördjupning",
  "Fördjupa debatten: pröva de starkaste motargumenten, erkänn goda poänger och visa var du står nu.",
);

const voteTask = `Runda 4 — Röstning. Rösta på den deltagare som argumenterade bäst under debatten.
Du får inte rösta på dig själv ({participant}). Välj en av: {candidates}.
${DEBATE_VOTE_REPLY}
${LANGUAGE}`;

export const DEBATE_ROUND4_VOTING_PROMPT = `{context}

${voteTask}`;

export const ONESEEK_DEBATE_ROUND1_PROMPT = roundPrompt(
  "Runda 1 — Introduktion (OneSeek)",
  "Presentera din ståndpunkt med stöd i aktuella fakta, och ange när något är osäkert.",
);
export const ONESEEK_DEBATE_ROUND2_PROMPT = roundPrompt(
  "Runda 2 — Argument (OneSeek)",
  "Utveckla dina argument med aktuella fakta och bemöt andra deltagares påståenden, rätta dem vid behov.",
);
export const ONESEEK_DEBATE_ROUND3_PROMPT = roundPrompt(
  "Runda 3 — Fördjupning (OneSeek)",
  "Väg samman debatten: vilka påståenden håller mot fakta, vilka gör det inte, och var står du nu?",
);
export const ONESEEK_DEBATE_ROUND4_PROMPT = `{context}

${voteTask}
Väg särskilt in vilka deltagare som höll sig till verifierbara fakta.`;

/** The prompts of a debate (/debatt and /dvoice; the chat's supervisor too), in the registry's order. */
export const DEBATT_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "debate.supervisor.instructions",
    description: "Supervisor: system prompt of the normal chat route (messages that are not debate commands)",
    placeholders: [P.date()],
    default: DEBATE_SUPERVISOR_INSTRUCTIONS,
  },
  {
    key: "debate.domain_planner.system",
    description: "Domain planner: each external participant's role in the debate (its system prompt)",
    placeholders: [P.participant(true), P.participants, P.participantCount],
    default: DEFAULT_DEBATE_DOMAIN_PLANNER_PROMPT,
  },
  {
    key: "debate.mini_planner.system",
    description: "Mini-planner: plans OneSeek's web-search queries for a round (JSON)",
    placeholders: [P.topic(true), opt("round", "the round number"), P.date(), opt("max_queries", "most queries allowed")],
    default: DEFAULT_DEBATE_MINI_PLANNER_PROMPT,
  },
  {
    key: "debate.mini_critic.system",
    description: "Mini-critic: keeps the relevant search results for OneSeek (JSON)",
    placeholders: [P.topic()],
    default: DEFAULT_DEBATE_MINI_CRITIC_PROMPT,
  },
  {
    key: "debate.convergence.system",
    description: "Convergence: the model's analysis of agreements and disagreements (JSON)",
    placeholders: [P.topic(true), opt("winner", "the computed winner"), opt("vote_counts", "votes per participant")],
    default: DEFAULT_DEBATE_CONVERGENCE_PROMPT,
  },
  {
    key: "debate.analysis.system",
    description: "Synthesizer: the final analysis, streamed after the debate-arena-data block",
    placeholders: [P.topic(true), req("winner", "the computed winner"), opt("vote_counts", "votes per participant"), opt("summary", "the convergence summary")],
    default: DEFAULT_DEBATE_ANALYSIS_PROMPT,
  },
  {
    key: "debate.research.system",
    description: "Research: how OneSeek is given its kept web-search results",
    placeholders: [req("results", "the kept search results, one per line"), P.date()],
    default: DEFAULT_DEBATE_RESEARCH_PROMPT,
  },
  {
    key: "debate.oneseek.system",
    description: "OneSeek: system prompt of the internal participant (with today's date)",
    placeholders: [P.date(true), P.participants, P.participantCount],
    default: ONESEEK_DEBATE_SYSTEM_PROMPT,
  },
  roundPromptDefinition("debate.round.1.introduction", "Round 1: introduction (≤300 words)", DEBATE_ROUND1_INTRO_PROMPT),
  roundPromptDefinition("debate.round.2.argument", "Round 2: argument (≤500 words)", DEBATE_ROUND2_ARGUMENT_PROMPT),
  roundPromptDefinition("debate.round.3.deepening", "Round 3: deepening (≤500 words)", DEBATE_ROUND3_DEEPENING_PROMPT),
  votePromptDefinition("debate.round.4.voting", "Round 4: the vote (JSON)", DEBATE_ROUND4_VOTING_PROMPT),
  roundPromptDefinition("debate.oneseek.round.1", "OneSeek round 1", ONESEEK_DEBATE_ROUND1_PROMPT),
  roundPromptDefinition("debate.oneseek.round.2", "OneSeek round 2", ONESEEK_DEBATE_ROUND2_PROMPT),
  roundPromptDefinition("debate.oneseek.round.3", "OneSeek round 3", ONESEEK_DEBATE_ROUND3_PROMPT),
  votePromptDefinition("debate.oneseek.round.4", "OneSeek round 4: the vote (JSON)", ONESEEK_DEBATE_ROUND4_PROMPT),
];
