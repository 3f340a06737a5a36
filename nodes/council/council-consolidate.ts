import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { emit } from "../../ports/emit.js";
import type { CouncilResult, CouncilStateType, CouncilUpdate } from "../../state/council.js";
import { streamFinalText } from "../shared/streamed-answer.js";
import { roundOf } from "./lib/verdict.js";

const SEVERITY = { PASS: 0, WARN: 1, FAIL: 2 } as const;

/**
 * The council's result: each judge's round-2 verdict, or its round-1 verdict when round 2 was not
 * run, timed out or failed; all of round 2 failing is a round-1-only consolidation, noted. The
 * consensus is the unanimous verdict, else the majority, else (a tie) the more severe.
 */
function consolidate(state: CouncilStateType): CouncilResult {
  const r1 = roundOf(state, 1).filter((r) => r.verdict);
  const r2 = new Map(
    roundOf(state, 2)
      .filter((r) => r.verdict)
      .map((r) => [r.modelKey, r]),
  );
  const ran = state.branch !== null;
  const verdicts = r1.map((one) => {
    const final = r2.get(one.modelKey) ?? one;
    return {
      ...final.verdict!,
      modelKey: one.modelKey,
      display: one.display,
      perspective: one.perspective,
      source: final === one ? ("round1" as const) : ("round2" as const),
    };
  });
  const counts = { PASS: 0, WARN: 0, FAIL: 0 };
  for (const v of verdicts) counts[v.verdict]++;
  const top = Math.max(...Object.values(counts));
  const leaders = (Object.keys(counts) as (keyof typeof counts)[]).filter((k) => counts[k] === top);
  const consensus = leaders.sort((a, b) => SEVERITY[b] - SEVERITY[a])[0];
  const round2: CouncilResult["round2"] = !ran ? "skipped" : r2.size === 0 ? "failed" : r2.size < r1.length ? "partial" : "complete";
  const note =
    round2 === "failed"
      ? "Every judge failed round 2: this is a round-1-only consolidation."
      : round2 === "partial"
        ? `${r1.length - r2.size} judge(s) did not finish round 2; their round-1 verdicts are used.`
        : state.options.debate && !ran
          ? "Round 2 was skipped: fewer than two judges gave a round-1 verdict."
          : undefined;
  return {
    verdicts,
    counts,
    consensus,
    unanimous: leaders.length === 1 && top === verdicts.length,
    round2,
    ...(state.branch ? { branch: state.branch } : {}),
    ...(note ? { note } : {}),
  };
}

/** The report when the model fails: the counts, the consensus and every finding. */
function fallbackReport(result: CouncilResult): string {
  const lines = [`**${result.consensus}** (PASS ${result.counts.PASS} · WARN ${result.counts.WARN} · FAIL ${result.counts.FAIL})`];
  if (result.note) lines.push("", result.note);
  for (const v of result.verdicts) {
    lines.push("", `- ${v.judge}: ${v.verdict} (${v.confidence}) — ${v.key_insight}`);
    for (const f of v.findings) lines.push(`  - ${f.severity}: ${f.description}`);
  }
  return lines.join("\n");
}

/**
 * council_consolidate: the verdicts are final. Emits the consolidation (`council_consolidation`),
 * then the report the internal model writes from it, streamed (`answer_delta`, stage `report`);
 * a deterministic report stands in if that model fails.
 */
export function makeCouncilConsolidate(deps: NodeDeps) {
  return async function councilConsolidate(state: CouncilStateType, config: LangGraphRunnableConfig): Promise<CouncilUpdate> {
    const ctx = await deps.context(config);
    const result = consolidate(state);
    emit(config, "council_consolidation", { data: result });
    const claim = state.question;
    const { text, error, usage } = await streamFinalText(deps, ctx, config, {
      mode: "council",
      stage: "report",
      display: "Rapport",
      phase: "council_report",
      topic: claim,
      prompt: ctx.prompts.render("council.report", { claim, consolidation: JSON.stringify(result, null, 2) }),
      timeoutMs: state.timeout_ms,
    });
    if (error) ctx.log(`council report failed, using the plain consolidation: ${error}`);
    const report = error ? fallbackReport(result) : text;
    emit(config, "council_report_complete", { data: { report, fallback: Boolean(error), ...(error ? { error } : {}), ...(usage ? { usage } : {}) } });
    return { result, answer: report, final_error: error ?? null, messages: [new AIMessage(report)] };
  };
}
