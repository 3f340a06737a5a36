import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../ports/models.js";
import { parseVerdict } from "../state/replies/verdict.js";
import { parseCommand } from "../state/commands.js";
import { strictEventSchema } from "../state/events.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { verdictReply, withOverrides, type Step } from "./support/fake-model.js";
import { named, runEvents, testDeps, graphOf, stepNames } from "./support/harness.js";
import { postDeliberate, readSse, startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const CLAIM = "The Great Wall is visible from space with the naked eye.";
const consolidation = (events: { event: string; data: Record<string, unknown> }[]) => named(events, "council-consolidation")[0].data;

/** Round-1 verdicts by judge key; round 2 answers with `r2` (or the default PASS). */
function judges(r1: Record<string, "PASS" | "WARN" | "FAIL" | Step>, r2: (req: ModelRequest) => Step | string | undefined = () => undefined) {
  return withOverrides((req) => {
    if (req.phase !== "judge") return undefined;
    if (req.round === 2)
      return (
        r2(req) ??
        verdictReply(req.participant!.display, typeof r1[req.participant!.key] === "string" ? (r1[req.participant!.key] as "PASS") : "PASS", {
          r1_restatement: "I said so.",
          change_justification: "",
        })
      );
    const v = r1[req.participant!.key];
    return typeof v === "string" ? verdictReply(req.participant!.display, v) : v;
  });
}

describe("/council: command and verdicts", () => {
  it("is its own command, with --debate", () => {
    expect(parseCommand("/council --debate X is true.")).toEqual({ kind: "deliberation", mode: "council", question: "X is true.", options: { debate: true } });
    expect(parseCommand("/council X is true.")).toEqual({ kind: "deliberation", mode: "council", question: "X is true.", options: {} });
    expect(parseCommand("/council --debug X")).toEqual({ kind: "bad_option", command: "/council", option: "--debug", allowed: ["--debate"] });
  });

  it("reads seed 002's JSON verdict block, repairing case and a numeric confidence, under the council's judge name", () => {
    const text =
      'Analysis.\n```json\n{"judge": "j", "verdict": "warn", "confidence": 0.9, "key_insight": "k", "findings": [{"severity": "Significant", "description": "d"}], "recommendation": "r", "r1_restatement": "I said FAIL.", "change_justification": "line 4 is wrong"}\n```';
    expect(parseVerdict(text, "judge-1")).toEqual({
      ok: true,
      verdict: {
        judge: "judge-1",
        verdict: "WARN",
        confidence: "HIGH",
        key_insight: "k",
        findings: [{ severity: "significant", description: "d" }],
        recommendation: "r",
      },
      restatement: "I said FAIL.",
      changeJustification: "line 4 is wrong",
    });
    expect(parseVerdict('{"verdict": "MAYBE"}', "j")).toEqual({ ok: false, reason: expect.stringMatching(/^verdict: /) });
    expect(parseVerdict("Looks fine to me.", "j")).toEqual({ ok: false, reason: "no JSON verdict in the answer" });
  });
});

describe("/council: round 1", () => {
  it("asks every judge from a distinct perspective in parallel and consolidates the verdicts", async () => {
    const { deps, models } = testDeps({ script: judges({ call_grok: "FAIL", call_claude: "WARN", call_gpt: "FAIL" }) });
    const events = await runEvents(deps, `/council ${CLAIM}`, { participants: THREE });
    expect(stepNames(events)).toEqual([
      "council-start",
      "council-round-start",
      "council-verdict",
      "council-verdict",
      "council-verdict",
      "council-round-complete",
      "council-consolidation",
      "council-report-complete",
      "title-complete",
      "complete",
      "done",
    ]);
    for (const e of events.slice(0, -1)) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    expect(named(events, "council-start")[0].judges.map((j: { perspective: string }) => j.perspective)).toEqual(["correctness", "risk", "completeness"]);
    const grok = models.callsOf("judge", "call_grok")[0].messages;
    expect(grok).toHaveLength(2);
    expect(String(grok[0].content)).toMatch(/^You are judge-1 \(correctness\), a judge on a council/);
    expect(String(grok[1].content)).toContain(CLAIM);
    const c = consolidation(events);
    expect(c).toMatchObject({ counts: { PASS: 0, WARN: 1, FAIL: 2 }, consensus: "FAIL", unanimous: false, round2: "skipped" });
    expect(c.verdicts.map((v: { source: string }) => v.source)).toEqual(["round1", "round1", "round1"]);
    expect(String(models.callsOf("council_report")[0].messages[0].content)).toContain(JSON.stringify(c, null, 2));
    expect(named(events, "council-report-complete")[0].data).toEqual({ report: "## Council report\n\nThe council agrees.", fallback: false });
  });

  it("breaks a tie toward the more severe verdict", async () => {
    const { deps } = testDeps({ script: judges({ call_grok: "PASS", call_claude: "FAIL", call_gpt: "WARN" }) });
    expect(consolidation(await runEvents(deps, `/council ${CLAIM}`, { participants: THREE }))).toMatchObject({
      consensus: "FAIL",
      counts: { PASS: 1, WARN: 1, FAIL: 1 },
    });
  });

  it("stops with an error when no judge returns a readable verdict", async () => {
    const { deps } = testDeps({ script: judges({ call_grok: { text: "fine" }, call_claude: { error: new Error("down") }, call_gpt: { text: "ok" } }) });
    const events = await runEvents(deps, `/council ${CLAIM}`, { participants: THREE });
    expect(stepNames(events).slice(-3)).toEqual(["council-round-complete", "error", "done"]);
    expect(named(events, "error")[0].code).toBe("all_judges_failed");
  });

  it("writes a plain report when the report model fails", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "council_report" ? { error: new Error("report down") } : undefined)) });
    const events = await runEvents(deps, `/council ${CLAIM}`, { participants: THREE });
    const report = named(events, "council-report-complete")[0].data;
    expect(report).toMatchObject({ fallback: true, error: "report down" });
    expect(report.report).toMatch(/^\*\*PASS\*\* \(PASS 3 · WARN 0 · FAIL 0\)/);
    expect(report.report).toContain("- minor: Grok finding");
  });
});

describe("/council --debate: round 2 (seed 002)", () => {
  it("continues each judge's SAME conversation with the others' full verdicts, on the disagreed branch", async () => {
    const { deps, models } = testDeps({ script: judges({ call_grok: "FAIL", call_claude: "WARN", call_gpt: "FAIL" }) });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    expect(named(events, "council-round-start")).toEqual([expect.objectContaining({ round: 1 }), expect.objectContaining({ round: 2, branch: "disagreed" })]);
    const r1 = models.calls.find((c) => c.phase === "judge" && c.participant === "call_claude" && c.round === 1)!;
    const r2 = models.calls.find((c) => c.phase === "judge" && c.participant === "call_claude" && c.round === 2)!.messages;
    // The round-1 conversation, the judge's own round-1 reply, then the round-2 message.
    expect(r2).toHaveLength(4);
    expect(SystemMessage.isInstance(r2[0]) && HumanMessage.isInstance(r2[1]) && AIMessage.isInstance(r2[2]) && HumanMessage.isInstance(r2[3])).toBe(true);
    expect(String(r2[0].content)).toBe(String(r1.messages[0].content));
    expect(String(r2[2].content)).toBe(verdictReply("Claude", "WARN"));
    const message = String(r2[3].content);
    expect(message).toMatch(/^Round 2\. The judges disagreed in round 1\. Steel-man/);
    expect(message).toMatch(/RESTATE your round-1 position first/);
    // The others appear under the council's judge names, whatever the models called themselves.
    expect(message).toMatch(/"judge": "judge-1 \(correctness\)",\n  "verdict": "FAIL"/);
    expect(message).not.toMatch(/"judge": "(Grok|ChatGPT)"/);
    expect(message).toContain('"key_insight": "ChatGPT insight"');
    // Its own verdict is not among the others'; no model names beyond the verdicts' own judge labels.
    expect(message).not.toContain("Claude insight");
    const c = consolidation(events);
    expect(c).toMatchObject({ round2: "complete", branch: "disagreed" });
    expect(c.verdicts.map((v: { source: string }) => v.source)).toEqual(["round2", "round2", "round2"]);
    expect(named(events, "council-round-complete")[1]).toMatchObject({ round: 2 });
  });

  it("never shows a judge another judge's model name, even when a verdict names itself", async () => {
    const { deps, models } = testDeps({
      script: judges({
        call_grok: "FAIL",
        call_claude: { text: verdictReply("The judge", "WARN", { judge: "Claude", key_insight: "As Claude, I find the claim a myth." }) },
        call_gpt: "FAIL",
      }),
    });
    await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    for (const key of ["call_grok", "call_gpt"]) {
      const message = String(models.calls.find((c) => c.phase === "judge" && c.participant === key && c.round === 2)!.messages[3].content);
      expect(message).toContain('"key_insight": "As [a model], I find the claim a myth."');
      expect(message).toContain('"judge": "judge-2 (risk)"');
      expect(message).not.toMatch(/Claude|Anthropic/);
    }
  });

  it("takes the agreed branch after a unanimous round 1", async () => {
    const { deps, models } = testDeps({ script: judges({ call_grok: "PASS", call_claude: "PASS", call_gpt: "PASS" }) });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    expect(named(events, "council-round-start")[1]).toMatchObject({ branch: "agreed" });
    expect(String(models.calls.find((c) => c.phase === "judge" && c.round === 2)!.messages[3].content)).toMatch(
      /^Round 2\. All judges reached the same verdict/,
    );
  });

  it("keeps a judge's round-1 verdict when its round 2 times out", async () => {
    const { deps } = testDeps({
      script: judges({ call_grok: "FAIL", call_claude: "WARN", call_gpt: "FAIL" }, (req) =>
        req.participant!.key === "call_claude" ? { text: verdictReply("Claude", "PASS"), latencyMs: 5_000 } : undefined,
      ),
    });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE, modeConfig: { round2TimeoutMs: 200 } });
    const r2 = named(events, "council-round-complete")[1].verdicts;
    expect(r2.find((v: { modelKey: string }) => v.modelKey === "call_claude")).toMatchObject({ status: "timeout", error: "timeout: timed out after 200 ms" });
    const c = consolidation(events);
    expect(c).toMatchObject({ round2: "partial", note: "1 judge(s) did not finish round 2; their round-1 verdicts are used." });
    expect(c.verdicts.find((v: { modelKey: string }) => v.modelKey === "call_claude")).toMatchObject({ verdict: "WARN", source: "round1" });
  });

  it("falls back to a round-1-only consolidation when every judge fails round 2, and says so", async () => {
    const { deps, models } = testDeps({
      script: judges({ call_grok: "FAIL", call_claude: "WARN", call_gpt: "FAIL" }, () => ({ error: new Error("r2 down") })),
    });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    const c = consolidation(events);
    expect(c).toMatchObject({ round2: "failed", note: "Every judge failed round 2: this is a round-1-only consolidation.", consensus: "FAIL" });
    expect(c.verdicts.every((v: { source: string }) => v.source === "round1")).toBe(true);
    expect(String(models.callsOf("council_report")[0].messages[0].content)).toContain("round-1-only consolidation");
  });

  it("gives no round 2 to a judge whose round 1 failed (N-1 in round 2)", async () => {
    const { deps, models } = testDeps({ script: judges({ call_grok: "FAIL", call_claude: { text: "late", latencyMs: 5_000 }, call_gpt: "WARN" }) });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE, configurable: { response_timeout_ms: 200 } });
    expect(
      models.calls
        .filter((c) => c.phase === "judge" && c.round === 2)
        .map((c) => c.participant)
        .sort(),
    ).toEqual(["call_gpt", "call_grok"]);
    expect(consolidation(events).verdicts).toHaveLength(2);
  });

  it("skips round 2 when fewer than two judges have a verdict, and notes it", async () => {
    const { deps, models } = testDeps({ script: judges({ call_grok: "FAIL", call_claude: { text: "?" }, call_gpt: { text: "?" } }) });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    expect(models.calls.filter((c) => c.phase === "judge" && c.round === 2)).toHaveLength(0);
    expect(consolidation(events)).toMatchObject({ round2: "skipped", note: "Round 2 was skipped: fewer than two judges gave a round-1 verdict." });
  });

  it("flags a verdict changed without the specific detail seed 002's evidence bar asks for", async () => {
    const { deps } = testDeps({
      script: judges({ call_grok: "FAIL", call_claude: "WARN", call_gpt: "FAIL" }, (req) => {
        if (req.participant!.key === "call_claude") return verdictReply("Claude", "FAIL", { r1_restatement: "I said WARN.", change_justification: "" });
        if (req.participant!.key === "call_gpt")
          return verdictReply("ChatGPT", "WARN", {
            r1_restatement: "I said FAIL.",
            change_justification: "Judge 1 missed that astronauts confirmed it is not visible",
          });
        return undefined;
      }),
    });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    const r2 = named(events, "council-round-complete")[1].verdicts as Record<string, any>[];
    expect(r2.find((v) => v.modelKey === "call_claude")).toMatchObject({ unjustifiedChange: true, restatement: "I said WARN." });
    expect(r2.find((v) => v.modelKey === "call_gpt")).toMatchObject({ changeJustification: "Judge 1 missed that astronauts confirmed it is not visible" });
    expect(r2.find((v) => v.modelKey === "call_gpt")?.unjustifiedChange).toBeUndefined();
  });

  it("runs from POST /api/v1/deliberate/stream with mode `council`, and is a subgraph in Studio", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const { events } = await readSse(
        await postDeliberate(server.url, { question: CLAIM, mode: "council", modeConfig: { debate: true, models: ["call_grok", "call_claude"] } }),
      );
      const seq = events.map((e) => e.event);
      expect(seq.filter((n) => n === "council-round-complete")).toHaveLength(2);
      expect(seq.at(-1)).toBe("done");
      const bad = await postDeliberate(server.url, { question: CLAIM, mode: "council", modeConfig: { models: ["call_grok"] } });
      expect((await bad.json()).error.message).toContain("Council mode requires at least 2 judges");
    } finally {
      await server.close();
    }
    const ids = Object.values((await graphOf(deps).getGraphAsync({ xray: true })).nodes).map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(["council:council_planner", "council:council_judge", "council:council_review", "council:council_consolidate"]));
  });
});

describe("/council on the arena page's state", () => {
  it("builds the verdict table of both rounds, the consensus and the report from the events", async () => {
    const { deps } = testDeps({ script: judges({ call_grok: "FAIL", call_claude: "WARN", call_gpt: "FAIL" }) });
    const events = await runEvents(deps, `/council --debate ${CLAIM}`, { participants: THREE });
    const panel = events.reduce(reduce, emptyArena()).panel;
    expect(panel?.kind).toBe("council");
    if (panel?.kind !== "council") return;
    expect(panel.judges.map((j) => j.perspective)).toEqual(["correctness", "risk", "completeness"]);
    expect(Object.keys(panel.verdicts[1])).toHaveLength(3);
    expect(Object.keys(panel.verdicts[2])).toHaveLength(3);
    expect(panel.branch).toBe("disagreed");
    expect(panel.result?.consensus).toBe("FAIL");
    expect(panel.report).toBe("## Council report\n\nThe council agrees.");
  });
});
