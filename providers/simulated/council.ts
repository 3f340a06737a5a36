import { hashText as hash, seededRandom } from "../../state/random.js";
import { extractJsonObject } from "../../state/replies/json.js";
import { renderVerdict, type VerdictBlock } from "../../state/replies/verdict.js";
import { COUNCIL, PERSPECTIVES, type VerdictName } from "./council-banks.js";
import type { PhaseAnswers, Simulation } from "./context.js";

/** The consolidation a /council report prompt holds, when it can be read. */
interface Consolidation {
  verdicts: {
    judge: string;
    /** The judge's display name (Grok, Claude…), as the verdict table shows it. */
    display?: string;
    perspective?: string;
    verdict: VerdictName;
    key_insight?: string;
    findings?: { severity: string; description: string }[];
    recommendation?: string;
  }[];
  counts: Record<VerdictName, number>;
  consensus: VerdictName;
  unanimous?: boolean;
  round2?: string;
  note?: string;
}

function consolidationIn(prompt: string): Consolidation | null {
  const json = extractJsonObject(prompt);
  if (!json || !Array.isArray(json.verdicts) || typeof json.consensus !== "string" || !json.counts) return null;
  return json as unknown as Consolidation;
}

/** A judge's reply in parts: the analysis, the verdict block, and every sentence it used. */
interface JudgeReply {
  analysis: string;
  block: VerdictBlock;
  sentences: string[];
}

const SEVERITY_ORDER: Record<string, number> = { critical: 0, significant: 1, minor: 2 };

/** A judge's verdict block and analysis for a round; round 2 restates round 1 and steel-mans the other side. */
function judgeReply(s: Simulation, judgeRound: number): JudgeReply {
  const { prompt, me, topic, writer, lang } = s;
  // Round 2 restates round 1's key insight, and prefers sentences round 1 did not use.
  const r1 = judgeRound === 2 ? judgeReply(s, 1) : undefined;
  const w = writer(new Set(r1?.sentences ?? []), seededRandom(hash(`judge|${me}|${judgeRound}|${topic}`)));
  if (r1) w.used.add(r1.block.key_insight);
  const c = COUNCIL[lang];
  const verdict = (["PASS", "WARN", "WARN", "FAIL"] as const)[hash(`${me}|${topic}`) % 4];
  const judge = /You are (judge-\d+ \([^)]+\))/.exec(prompt)?.[1] ?? /"judge": "([^"]+)"/.exec(prompt)?.[1] ?? me;
  const named = /Your perspective: ([\w-]+)/.exec(prompt)?.[1] ?? /\(([\w-]+)\)/.exec(judge)?.[1] ?? "";
  const p = PERSPECTIVES[lang][named.toLowerCase()] ?? PERSPECTIVES[lang].correctness;
  const analysis = [w.one(p.lead), w.one(c.verdictLead[verdict])];
  if (r1) analysis.push(w.one(c.steelman));
  // A pass says what holds; the perspective's insights are its criticisms.
  const keyInsight = w.one(verdict === "PASS" ? c.passInsight : p.insight);
  const severities =
    verdict === "FAIL" ? (["significant", "significant"] as const) : verdict === "WARN" ? (["significant", "minor"] as const) : (["minor"] as const);
  const findings = w
    .draw(p.finding, verdict === "WARN" ? 1 + w.index(2) : severities.length)
    .map((description, i) => ({ severity: severities[i], description }));
  const recommendation = w.one(c.recommendation[verdict]);
  const block: VerdictBlock = {
    judge,
    verdict,
    confidence: (["HIGH", "MEDIUM"] as const)[hash(me) % 2],
    key_insight: keyInsight,
    findings,
    recommendation,
    ...(r1 ? { r1_restatement: `${w.fill(c.restated, { verdict: r1.block.verdict })} ${r1.block.key_insight}`, change_justification: "" } : {}),
  };
  return { analysis: analysis.join(" "), block, sentences: [...analysis, keyInsight, ...findings.map((f) => f.description), recommendation] };
}

/** /council's simulated answers: the judges' verdicts and the consolidated report. */
export const councilAnswers = {
  judge: (sim) => {
    const { request } = sim;
    const { analysis, block } = judgeReply(sim, request.round === 2 ? 2 : 1);
    return renderVerdict(analysis, block);
  },
  council_report: ({ prompt, writer, lang }) => {
    const c = COUNCIL[lang];
    const w = writer();
    const result = consolidationIn(prompt);
    if (!result) {
      // No readable consolidation (e.g. an edited prompt): a report from the claim's words alone.
      const p = PERSPECTIVES[lang];
      return c.heads
        .map((h, i) => `${h}\n\n${[w.one(p.correctness.lead), w.one(p.evidence.finding), w.one(p.completeness.insight), w.one(c.recommendation.WARN)][i]}`)
        .join("\n\n");
    }
    const consensus = (["PASS", "WARN", "FAIL"] as const).includes(result.consensus) ? result.consensus : "WARN";
    const counts = (["PASS", "WARN", "FAIL"] as const).map((v) => `${v} ${result.counts[v] ?? 0}`).join(" · ");
    const list = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${c.and} ${items.at(-1)}`);
    // Judges by the names the verdict table shows, not the council's `judge-1 (correctness)`, whose
    // perspective is English; the perspective is said in the claim's language.
    const nameOf = (v: Consolidation["verdicts"][number]) => v.display?.trim() || v.judge;
    const perspectiveOf = (v: Consolidation["verdicts"][number]) => {
      const key = v.perspective ?? /\(([^)]+)\)$/.exec(v.judge)?.[1] ?? "";
      return c.perspective[key] ?? "";
    };
    const groups = (["PASS", "WARN", "FAIL"] as const)
      .map((v) => ({ v, judges: result.verdicts.filter((x) => x.verdict === v).map(nameOf) }))
      .filter((g) => g.judges.length > 0)
      .map((g) => w.fill(c.gave, { judges: list(g.judges), verdict: g.v }));
    const split = groups.length <= 1 ? c.unanimous : w.fill(c.divided, { groups: groups.join("; ") });
    const seen = new Set<string>();
    const fresh = (s: string | undefined) => (s && s.trim() && !seen.has(s.trim()) ? (seen.add(s.trim()), true) : false);
    const findings = result.verdicts
      .flatMap((v) => (v.findings ?? []).map((f) => ({ ...f, judge: nameOf(v) })))
      .sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3))
      .filter((f) => fresh(f.description))
      .map((f) => `- **${c.severity[f.severity] ?? f.severity}** — ${f.description.trim()} (${f.judge})`);
    const insights = result.verdicts
      .filter((v) => fresh(v.key_insight))
      .map((v) => `- ${nameOf(v)} (${[perspectiveOf(v), v.verdict].filter(Boolean).join(", ")}): ${v.key_insight!.trim()}`);
    const lead = result.verdicts.find((v) => v.verdict === consensus && fresh(v.recommendation)) ?? result.verdicts.find((v) => fresh(v.recommendation));
    const recommendation = lead?.recommendation?.trim() || w.one(c.recommendation[consensus]);
    const note = result.round2 === "failed" || result.round2 === "partial" ? c.notes[result.round2] : result.note ? c.notes.skipped : "";
    const sections = [
      [w.fill(c.verdictLine, { verdict: consensus, counts }), c.meaning[consensus], split].join(" "),
      findings.length > 0 ? findings.join("\n") : w.one(PERSPECTIVES[lang].completeness.finding),
      insights.join("\n") || w.one(PERSPECTIVES[lang].evidence.insight),
      [recommendation, note].filter(Boolean).join(" "),
    ];
    return c.heads.map((h, i) => `${h}\n\n${sections[i]}`).join("\n\n");
  },
} satisfies PhaseAnswers;
