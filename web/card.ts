/** One participant's answer in one round (or one stage), as a card shows it. */
export interface CardRound {
  text: string;
  status: "speaking" | "ok" | "error";
  wordCount?: number;
  latencyMs?: number;
  error?: string;
  /** The person's turn was skipped: no answer in time, or they passed. */
  skipped?: "timeout" | "passed";
}
