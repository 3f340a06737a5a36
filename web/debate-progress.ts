import type { ArenaState } from "./arena-state.js";

/** Progress through the debate, 0–100: three spoken rounds, the vote, then the synthesis. */
export function progress(s: ArenaState): number {
  if (s.done && s.results) return 100;
  const perRound = 100 / 5;
  const spoken = s.participants.length || 1;
  const running = s.round >= 1 && s.round <= 3 && !s.roundsDone.includes(s.round);
  const current = running
    ? Object.values(s.cards).filter((c) => c.rounds[s.round]?.status !== undefined && c.rounds[s.round].status !== "speaking").length / spoken
    : 0;
  const synthesis = s.results ? 1 : 0;
  return Math.min(99, Math.round(perRound * (s.roundsDone.length + current + synthesis)));
}
