import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { UsageSchema } from "./usage.js";
import { appended, replace } from "./channels.js";
import { deliberationChannels, finalTextChannels } from "./deliberation.js";

/** A judge's verdict: the JSON block at the end of its reply. */
export const VerdictSchema = z.object({
  judge: z.string(),
  verdict: z.enum(["PASS", "WARN", "FAIL"]),
  confidence: z.enum(["HIGH", "MEDIUM", "LOW"]),
  key_insight: z.string(),
  findings: z.array(z.object({ severity: z.enum(["critical", "significant", "minor"]), description: z.string() })),
  recommendation: z.string(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/** Round 2's branch, from round 1's unanimity. */
export const BranchSchema = z.enum(["agreed", "disagreed"]);
export type Branch = z.infer<typeof BranchSchema>;

/** One judge's verdict in one round, or why there is none. */
export const JudgeRoundSchema = z.object({
  round: z.union([z.literal(1), z.literal(2)]),
  modelKey: z.string(),
  display: z.string(),
  model: z.string(),
  perspective: z.string(),
  status: z.enum(["ok", "error", "timeout"]),
  verdict: VerdictSchema.strict().optional(),
  /** Round 2: the judge's restatement of its round-1 position, made before reviewing the others. */
  restatement: z.string().optional(),
  /** Round 2: the specific detail the judge cites for changing its verdict (a change needs one). */
  changeJustification: z.string().optional(),
  /** Round 2: the verdict changed without a cited detail. */
  unjustifiedChange: z.boolean().optional(),
  /** The judge's whole reply (round 2 continues the conversation that holds it). */
  text: z.string(),
  responseTimeMs: z.number().int(),
  error: z.string().optional(),
  /** What the call used (added), when the provider said. */
  usage: UsageSchema.optional(),
});
export type JudgeRound = z.infer<typeof JudgeRoundSchema>;

/** The consolidated result. */
export const CouncilResultSchema = z.object({
  /** The final verdict per judge, from round 2 or (timed out, failed, or no --debate) round 1. */
  verdicts: z.array(
    VerdictSchema.extend({ modelKey: z.string(), display: z.string(), perspective: z.string(), source: z.enum(["round1", "round2"]) }).strict(),
  ),
  counts: z.object({ PASS: z.number().int(), WARN: z.number().int(), FAIL: z.number().int() }).strict(),
  /** Unanimous, else the majority, else (a tie) the more severe verdict. */
  consensus: z.enum(["PASS", "WARN", "FAIL"]),
  unanimous: z.boolean(),
  /** Round 2: not run, complete, partly replaced by round-1 fallbacks, or failed (round-1 only). */
  round2: z.enum(["skipped", "complete", "partial", "failed"]),
  /** Round 2's branch: whether round 1 was unanimous. */
  branch: BranchSchema.optional(),
  /** A note for the report, e.g. that round 2 failed and round 1 was used. */
  note: z.string().optional(),
});
export type CouncilResult = z.infer<typeof CouncilResultSchema>;

/** The /council subgraph's state: the keys it shares with the top graph, and its own. */
export const CouncilState = Annotation.Root({
  ...deliberationChannels,
  ...finalTextChannels,
  /** Each judge's perspective, by participant key. */
  perspectives: replace<Record<string, string>>(() => ({})),
  /** Every judge's verdict of rounds 1 and 2, one update per judge. */
  rounds: appended<JudgeRound>(),
  /** Round 2's branch, from round 1's unanimity (null: no round 2). */
  branch: replace<Branch | null>(() => null),
  /** The consolidated verdicts. */
  result: replace<CouncilResult | null>(() => null),
});
export type CouncilStateType = typeof CouncilState.State;
export type CouncilUpdate = typeof CouncilState.Update;
