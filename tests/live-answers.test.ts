import { describe, expect, it } from "vitest";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import type { ClientEvent } from "../state/events.js";
import { translate } from "../state/messages/index.js";
import { runEvents, testDeps } from "./support/harness.js";

const who = (display: string) => ({ model: `m-${display}`, display, modelKey: `k-${display}` });
const at = { timestamp: "2026-12-07T00:00:00.000Z" };
const ev = (event: string, data: Record<string, unknown>) => ({ event, data: { ...data, ...at } }) as unknown as ClientEvent;
const delta = (display: string, text: string) => ev("answer-delta", { mode: "vote", stage: "collect", ...who(display), delta: text });
const end = (display: string, error?: string) =>
  ev("answer-end", { mode: "vote", stage: "collect", ...who(display), status: error ? "error" : "ok", ...(error ? { error } : {}), responseTimeMs: 1200 });

/** The narration of some events, as `/v1` and MCP write it, after each event. */
function narrate(events: ClientEvent[]) {
  let text = "";
  const after: string[] = [];
  const tell = createNarrator(
    (s) => (text += s),
    MARKDOWN_STYLES,
    (key, values) => translate("en", key, values),
  );
  for (const e of events) {
    tell(e);
    after.push(text);
  }
  return { text, after };
}

describe("parallel answers told as they are written", () => {
  const start = ev("vote-start", {
    conversationId: "c",
    messageId: "m",
    mode: "vote",
    question: "Tabs or spaces?",
    participants: ["Alpha", "Beta", "Gamma"].map(who),
    chairman: who("Chair"),
    simulated: false,
  });
  const answer = (display: string, response: string) => ({ ...who(display), response, responseTimeMs: 1200 });

  it("tells one answer live, holds the others, tells those ended whole at its end, then the next live; each once", () => {
    const events = [
      start,
      ev("stage1-start", {}),
      delta("Alpha", "Alpha one "),
      delta("Beta", "Beta whole."),
      delta("Alpha", "alpha two."),
      delta("Gamma", "Gamma one"),
      end("Beta"),
      end("Alpha"),
      delta("Gamma", " gamma two"),
      end("Gamma", "timeout: 30 s"),
      ev("stage1-complete", {
        data: [answer("Alpha", "Alpha one alpha two."), answer("Beta", "Beta whole.")],
        failed: [{ ...who("Gamma"), error: "timeout: 30 s" }],
      }),
    ];
    const { text, after } = narrate(events);
    // Alpha's words are told as they come, before Beta's held answer or the stage's end.
    expect(after[2]).toContain("Alpha one ");
    expect(after[3]).not.toContain("Beta whole.");
    expect(after[4]).toContain("Alpha one alpha two.");
    expect(after[6]).not.toContain("Beta whole.");
    // Alpha ends: Beta (ended meanwhile) is told whole, and Gamma goes live with what it wrote so far.
    expect(after[7]).toContain("Beta whole.");
    expect(after[7]).toMatch(/Gamma\*\*\nGamma one$/);
    expect(after[8]).toMatch(/Gamma one gamma two$/);
    expect(after[9]).toContain("✗ Gamma: timeout: 30 s");
    // Nothing told twice when the stage comes in.
    for (const said of ["Alpha one alpha two.", "Beta whole.", "Gamma one gamma two", "✗ Gamma"]) expect(text.split(said)).toHaveLength(2);
    expect(text.indexOf("Alpha one")).toBeLessThan(text.indexOf("Beta whole."));
  });

  it("tells a stage heard without its answers' ends (an older recording) whole from the stage's event", () => {
    const { text } = narrate([
      start,
      ev("stage1-start", {}),
      ev("stage1-complete", { data: [answer("Alpha", "Alpha said."), answer("Beta", "Beta said.")], failed: [{ ...who("Gamma"), error: "HTTP 500" }] }),
    ]);
    expect(text).toMatch(/Alpha\*\* 1\.2 s\nAlpha said\./);
    expect(text).toContain("Beta said.");
    expect(text).toContain("✗ Gamma: HTTP 500");
  });

  it("a real /vote run: answer text is told before the stage is in, and every answer once", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/vote Tabs or spaces?", { participants: ["call_grok", "call_claude", "call_gpt"] });
    expect(events.filter((e) => e.event === "answer-end" && e.data.stage === "collect")).toHaveLength(3);
    const { text, after } = narrate(events);
    const stageIn = events.findIndex((e) => e.event === "stage1-complete");
    const answers = (events[stageIn].data as unknown as { data: { response: string }[] }).data;
    const told = after[stageIn - 1];
    expect(answers.some((a) => told.includes(a.response))).toBe(true);
    for (const a of answers) expect(text.split(a.response).length).toBeGreaterThanOrEqual(2);
    // The winner's answer is told once more, as the result; no answer a third time.
    for (const a of answers) expect(text.split(a.response).length).toBeLessThanOrEqual(3);
  });
});
