import type { Ballot, Convergence } from "../../../state/debate.js";
import { detectLanguage } from "../../../state/language.js";

/** The arena's data, computed from state (the debate-arena-data block). */
export interface ArenaData {
  debate_analysis: {
    topic: string;
    rounds: { round: number; type: string; order: string[] }[];
    participants: { key: string; display: string; oneseek: boolean }[];
    /** Null when not one valid vote was cast. */
    winner: string | null;
    tiebreaker: Convergence["tiebreaker"];
    votes: Record<string, number>;
    ballots: { voter: string; voted_for: string; motivation: string }[];
    word_counts: Record<string, number>;
    consensus: string[];
    disagreements: string[];
    overlap_score: number | null;
  };
}

/** Builds the arena data from the debate's state. */
export function arenaData(args: {
  topic: string;
  rounds: { round: number; type: string; order: string[] }[];
  participants: { key: string; display: string; oneseek?: boolean }[];
  convergence: Convergence;
  ballots: Ballot[];
}): ArenaData {
  const c = args.convergence;
  return {
    debate_analysis: {
      topic: args.topic,
      rounds: args.rounds,
      participants: args.participants.map((p) => ({ key: p.key, display: p.display, oneseek: p.oneseek === true })),
      winner: c.winner,
      tiebreaker: c.tiebreaker,
      votes: c.vote_counts,
      ballots: args.ballots.filter((b) => b.valid).map((b) => ({ voter: b.voter, voted_for: b.voted_for!, motivation: b.motivation })),
      word_counts: c.word_counts,
      consensus: c.analysis?.agreements ?? [],
      disagreements: c.analysis?.disagreements ?? [],
      overlap_score: c.analysis?.overlap_score ?? null,
    },
  };
}

/** The fenced block that opens every synthesis; clients parse it into the arena. */
export function arenaDataBlock(data: ArenaData): string {
  return "```debate-arena-data\n" + JSON.stringify(data) + "\n```\n\n";
}

/** The winner as the prompts and the fallback synthesis name it, in the topic's language: their name, or that nobody won. */
export function winnerWords(topic: string, winner: string | null): string {
  if (winner !== null) return winner;
  return detectLanguage(topic) === "sv" ? "ingen (inte en enda giltig röst lades)" : "none (not one valid vote was cast)";
}

/**
 * The synthesis written without a model, when the synthesizer's model fails: topic, winner, vote
 * counts and the merged summary, in the topic's language (Swedish or English).
 */
export function fallbackSynthesis(topic: string, convergence: Convergence): string {
  const sv = detectLanguage(topic) === "sv";
  const counts = Object.entries(convergence.vote_counts)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([name, n]) => `- ${name}: ${n}`)
    .join("\n");
  const tiebreak = {
    none: "",
    word_count: sv ? " (oavgjort, avgjort på totalt antal ord)" : " (tie, decided by total word count)",
    alphabetical: sv ? " (oavgjort, avgjort i bokstavsordning)" : " (tie, decided alphabetically)",
  }[convergence.tiebreaker];
  const summary = convergence.analysis?.merged_summary;
  return [
    sv ? `## Debattens resultat: ${topic}` : `## Debate result: ${topic}`,
    `${sv ? "Vinnare" : "Winner"}: **${winnerWords(topic, convergence.winner)}**${tiebreak}`,
    `${sv ? "Röster" : "Votes"}:\n${counts}`,
    summary ? `${sv ? "Sammanfattning" : "Summary"}: ${summary}` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}
