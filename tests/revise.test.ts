import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../ports/models.js";
import { parseCommand } from "../state/commands.js";
import { parseRevision, resolveRevision } from "../state/replies/revision.js";
import { strictEventSchema } from "../state/events.js";
import { answerOf, revisedOf, withOverrides, type Step } from "./support/fake-model.js";
import { named, runEvents, testDeps, graphOf, stepNames } from "./support/harness.js";
import { idsAreGapless, postDeliberate, readSse, startApp } from "./support/http.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { RevisionStream } from "../nodes/revise/lib/revision-stream.js";
import { displayOfLabel } from "../web/deliberation-state.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const FOUR = [...THREE, "call_gemini"];

const promptOf = (messages: BaseMessage[]) => messages.map((m) => String(m.content)).join("\n");

/** The label of the answer that starts with `start` in a prompt's `--- Response X ---` blocks. */
function labelOf(messages: BaseMessage[], start: string): string {
  const blocks = [...promptOf(messages).matchAll(/--- (Response [A-Z]) ---\n([^\n]*)/g)];
  const hit = blocks.find((b) => b[2].startsWith(start));
  if (!hit) throw new Error(`no answer starting "${start}" in the prompt`);
  return hit[1];
}

/** A script where each voter (by key) votes for the revised answer of a participant (by display), or takes a step. */
function votesFor(choices: Record<string, string | Step>, more?: (req: ModelRequest, i: number, m: BaseMessage[]) => Step | string | undefined) {
  return withOverrides((req, i, messages) => {
    const extra = more?.(req, i, messages);
    if (extra !== undefined) return extra;
    if (req.phase !== "ballot") return undefined;
    const choice = choices[req.participant!.key];
    if (choice === undefined) return undefined;
    return typeof choice === "string" ? `Best one.\nVOTE: ${labelOf(messages, `${choice} revised`)}` : choice;
  });
}

const on = (phase: string, keys: string[], step: Step | string) => (req: ModelRequest) =>
  req.phase === phase && keys.includes(req.participant!.key) ? step : undefined;

const revisionsOf = (events: { event: string; data: Record<string, unknown> }[]) =>
  named(events, "revision-complete")[0].data.revisions as Record<string, any>[];
const revisionOf = (events: { event: string; data: Record<string, unknown> }[], key: string) => revisionsOf(events).find((r) => r.modelKey === key)!;

describe("/revise: command and parsing (seed 000 §B)", () => {
  it("is its own command", () => {
    expect(parseCommand("/REVISE Fyra dagars arbetsvecka?")).toEqual({
      kind: "deliberation",
      mode: "revise",
      question: "Fyra dagars arbetsvecka?",
      options: {},
    });
    expect(parseCommand("/revise")).toEqual({ kind: "missing_topic", command: "/revise" });
    expect(parseCommand("/revise --anti-anchoring  Fyra dagar?")).toEqual({
      kind: "deliberation",
      mode: "revise",
      question: "Fyra dagar?",
      options: { antiAnchoring: true },
    });
    expect(parseCommand("/revise --anti-anchoring")).toEqual({ kind: "missing_topic", command: "/revise" });
    expect(parseCommand("/revise --debate Fyra dagar?")).toEqual({ kind: "bad_option", command: "/revise", option: "--debate", allowed: ["--anti-anchoring"] });
  });

  it("parses DECISION, REASONING and REVISED RESPONSE as the seed does", () => {
    expect(parseRevision("DECISION: MERGE\nREASONING: A had data.\n\nREVISED RESPONSE:\nCombined.")).toEqual({
      decision: "MERGE",
      reasoning: "A had data.",
      revisedResponse: "Combined.",
    });
    expect(parseRevision("decision: stand\nreasoning: mine is right\nREVISED RESPONSE: Same.")).toEqual({
      decision: "STAND",
      reasoning: "mine is right",
      revisedResponse: "Same.",
    });
    expect(resolveRevision("DECISION: STAND\nREASONING: fine.\n\nREVISED RESPONSE:\nreworded", "original")).toMatchObject({
      revisedResponse: "original",
      parseSuccess: true,
    });
  });
});

describe("/revise: the pipeline and event sequence (seed 000 §C)", () => {
  it("answers, revises with a unique prompt per model, relabels, votes and declares the REVISED winner", async () => {
    const { deps, models } = testDeps({ script: votesFor({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/revise Should companies adopt a 4-day work week?", {
      participants: THREE,
      threadId: "r-1",
      configurable: { seed: 7 },
    });
    expect(stepNames(events)).toEqual([
      "debate-start",
      "round1-start",
      "round1-complete",
      "revision-start",
      "revision-complete",
      "vote-start",
      "vote-complete",
      "winner-declared",
      "title-complete",
      "complete",
      "done",
    ]);
    for (const e of events.slice(0, -1)) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    expect(named(events, "debate-start")[0]).toMatchObject({ conversationId: "r-1", mode: "debate", antiAnchoring: false });

    // Each model's revision prompt: its own answer as ITS original, the others under their round-1 labels.
    const round1 = named(events, "revision-start")[0].data.labelMap as Record<string, string>;
    for (const [key, display] of [
      ["call_grok", "Grok"],
      ["call_claude", "Claude"],
      ["call_gpt", "ChatGPT"],
    ]) {
      const prompt = promptOf(models.callsOf("revision", key)[0].messages);
      const [own, others] = prompt.split("OTHER RESPONSES:");
      expect(own).toContain(`YOUR ORIGINAL RESPONSE:\n${answerOf(display, 1)}`);
      expect(others).not.toContain(answerOf(display, 1));
      expect(others.match(/^--- Response [A-C] ---$/gm)).toHaveLength(2);
      const ownLabel = Object.entries(round1).find(([, m]) => m === deps.settings.roster.find((p) => p.key === key)!.model)![0];
      expect(others).not.toContain(`--- ${ownLabel} ---`);
    }

    const revision = named(events, "revision-complete")[0].data;
    expect(revision.summary).toEqual({ totalModels: 3, revised: 3, stood: 0, merged: 0, parseFailed: 0 });
    expect(revisionOf(events, "call_claude")).toMatchObject({
      decision: "REVISE",
      reasoning: "Claude found a point it missed.",
      originalResponse: answerOf("Claude", 1),
      revisedResponse: revisedOf("Claude"),
      originalWordCount: 27,
      revisedWordCount: 14,
      parseSuccess: true,
    });

    // The vote is on the revised answers, under a new label map.
    const ballot = promptOf(models.callsOf("ballot", "call_grok")[0].messages);
    expect(ballot).toMatch(/^After a round of deliberation/);
    expect(ballot).toContain(revisedOf("ChatGPT"));
    expect(ballot).not.toContain(answerOf("ChatGPT", 1));
    const vote = named(events, "vote-complete")[0].data;
    expect(vote.revisedLabelToModel).toEqual(named(events, "vote-start")[0].data.revisedLabelMap);
    expect(vote).toMatchObject({ validVoteCount: 3, invalidVoteCount: 0, isTie: false, tiedLabels: [] });
    expect(named(events, "winner-declared")[0].data).toMatchObject({
      winnerModel: "anthropic/claude-sonnet-4.5",
      winnerDisplay: "Claude",
      winnerResponse: revisedOf("Claude"),
      winnerDecision: "REVISE",
      voteCount: 2,
      totalVotes: 3,
      tiebroken: false,
    });
    expect(named(events, "winner-declared")[0].data.tiebreakerMethod).toBeUndefined();
  });

  it("draws a new label map for the vote (seed 000: no letter carries over)", async () => {
    let differs = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const { deps } = testDeps();
      const events = await runEvents(deps, "/revise Q?", { participants: FOUR, configurable: { seed } });
      const a = JSON.stringify(named(events, "revision-start")[0].data.labelMap);
      const b = JSON.stringify(named(events, "vote-start")[0].data.revisedLabelMap);
      if (a !== b) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  });

  it("applies seed 002's anti-anchoring protocol as an option: restate first, in the same conversation, then the others", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/revise Q?", { participants: THREE, modeConfig: { antiAnchoring: true } });
    expect(named(events, "debate-start")[0].antiAnchoring).toBe(true);
    // The same from the message's option.
    const viaOption = await runEvents(testDeps().deps, "/revise --anti-anchoring Q?", { participants: THREE });
    expect(named(viaOption, "debate-start")[0]).toMatchObject({ antiAnchoring: true, question: "Q?" });
    const unknown = await runEvents(testDeps().deps, "/revise --fast Q?");
    expect(named(unknown, "error")[0]).toMatchObject({ code: "unknown_option", message: "/revise has no option --fast; its options: --anti-anchoring" });
    const restate = promptOf(models.callsOf("restate", "call_gpt")[0].messages);
    expect(restate).toContain(answerOf("ChatGPT", 1));
    // Before restating, the model has seen no other answer.
    expect(restate).not.toContain(answerOf("Grok", 1));
    expect(restate).not.toMatch(/Response [A-Z]/);
    const revision = models.callsOf("revision", "call_gpt")[0].messages;
    expect(revision).toHaveLength(3);
    expect(String(revision[1].content)).toBe("ChatGPT restates its position.");
    expect(String(revision[2].content)).toContain(answerOf("Grok", 1));
    expect(String(revision[2].content)).toMatch(/SPECIFIC fact, error or omission/);
    expect(revisionOf(events, "call_gpt").restatement).toBe("ChatGPT restates its position.");
  });

  it("takes its prompts from the registry, overridable per run", async () => {
    const { deps, models } = testDeps();
    await runEvents(deps, "/revise Q?", {
      participants: THREE,
      configurable: { prompt_overrides: { "revise.revision": "Q={question} MINE={own_response} OTHERS={other_responses}" } },
    });
    expect(promptOf(models.callsOf("revision", "call_grok")[0].messages)).toMatch(/^Q=Q\? MINE=Grok says in round 1/);
  });
});

describe("/revise: a revision streams as its answer, not its protocol", () => {
  it("holds the DECISION and REASONING lines back and passes the revised answer, however the stream is cut", () => {
    const reply = "**DECISION:** REVISE\nREASONING: A point was missing.\n\n**REVISED RESPONSE:**\nUse argon2id, with a unique salt per password.";
    for (const size of [1, 2, 3, 7, 20, reply.length]) {
      const stream = new RevisionStream();
      const shown = (reply.match(new RegExp(`[^]{1,${size}}`, "g")) ?? []).map((piece) => stream.push(piece)).join("");
      expect(shown, `pieces of ${size}`).toBe("Use argon2id, with a unique salt per password.");
    }
    // The answer on the label's own line.
    const inline = new RevisionStream();
    expect(["DECISION: STAND\nREVISED RESPONSE: ", "Keep ", "it."].map((p) => inline.push(p)).join("")).toBe("Keep it.");
  });

  it("sends no protocol line in the revision stage's answer-delta events", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/revise Should companies adopt a 4-day work week?", { participants: THREE });
    const streamed = events.filter((e) => e.event === "answer-delta" && e.data.stage === "revision").map((e) => e.data as { delta: string; display: string });
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.map((d) => d.delta).join("")).not.toMatch(/DECISION|REASONING|REVISED RESPONSE/);
    const claude = streamed
      .filter((d) => d.display === "Claude")
      .map((d) => d.delta)
      .join("");
    expect(claude.trim()).toBe(revisedOf("Claude"));
  });
});

describe("/revise: every edge case of seed 000 §F", () => {
  it("All models fail in Stage 1", async () => {
    const { deps, models } = testDeps({ script: withOverrides(on("answer", THREE, { error: new Error("provider 500") })) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(stepNames(events)).toEqual(["debate-start", "round1-start", "round1-complete", "error", "done"]);
    expect(named(events, "error")[0].code).toBe("all_models_failed");
    expect(models.callsOf("revision")).toHaveLength(0);
  });

  it("Some models fail in Stage 1", async () => {
    const { deps, models } = testDeps({ script: withOverrides(on("answer", ["call_gemini"], { error: new Error("down") })) });
    const events = await runEvents(deps, "/revise Q?", { participants: FOUR });
    expect(named(events, "round1-complete")[0].failed).toEqual([expect.objectContaining({ modelKey: "call_gemini" })]);
    expect(
      models
        .callsOf("revision")
        .map((c) => c.participant)
        .sort(),
    ).toEqual(["call_claude", "call_gpt", "call_grok"]);
    expect(models.callsOf("ballot")).toHaveLength(3);
    expect(stepNames(events)).toContain("winner-declared");
    const few = testDeps({ script: withOverrides(on("answer", ["call_grok", "call_claude"], { error: new Error("down") })) });
    expect(named(await runEvents(few.deps, "/revise Q?", { participants: THREE }), "error")[0].code).toBe("too_few_answers");
  });

  it("Only 2 models succeed in Stage 1", async () => {
    const { deps, models } = testDeps({ script: withOverrides(on("answer", ["call_gpt"], { error: new Error("down") })) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    for (const key of ["call_grok", "call_claude"]) {
      const others = promptOf(models.callsOf("revision", key)[0].messages).split("OTHER RESPONSES:")[1];
      expect(others.match(/^--- Response [A-Z] ---$/gm)).toHaveLength(1);
    }
    expect(named(events, "vote-complete")[0].data.votes).toHaveLength(2);
  });

  it("Model fails in revision (Stage 2)", async () => {
    const { deps, models } = testDeps({ script: withOverrides(on("revision", ["call_claude"], { error: new Error("revision 503") })) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(revisionOf(events, "call_claude")).toMatchObject({
      decision: null,
      parseSuccess: false,
      revisedResponse: answerOf("Claude", 1),
      error: "revision 503",
    });
    expect(models.callsOf("ballot", "call_claude")).toHaveLength(1);
    expect(promptOf(models.callsOf("ballot", "call_grok")[0].messages)).toContain(answerOf("Claude", 1));
  });

  it("All models fail in revision", async () => {
    const { deps, models } = testDeps({ script: withOverrides(on("revision", THREE, { error: new Error("down") })) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(named(events, "revision-complete")[0].data.summary).toEqual({ totalModels: 3, revised: 0, stood: 0, merged: 0, parseFailed: 3 });
    const ballot = promptOf(models.callsOf("ballot", "call_grok")[0].messages);
    for (const d of ["Grok", "Claude", "ChatGPT"]) expect(ballot).toContain(answerOf(d, 1));
    expect(stepNames(events)).toContain("winner-declared");
  });

  it("Revision parse fails (no DECISION found)", async () => {
    const { deps } = testDeps({ script: withOverrides(on("revision", ["call_grok"], "Honestly, I would now say Rust, for safety.")) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(revisionOf(events, "call_grok")).toMatchObject({
      decision: null,
      parseSuccess: false,
      revisedResponse: "Honestly, I would now say Rust, for safety.",
    });
    expect(named(events, "revision-complete")[0].data.summary.parseFailed).toBe(1);
  });

  it("REVISED RESPONSE section not found", async () => {
    const { deps } = testDeps({
      script: withOverrides((req) => {
        if (req.phase !== "revision") return undefined;
        if (req.participant!.key === "call_grok") return "DECISION: REVISE\nREASONING: B was right about costs.\nThe new answer: it depends on the sector.";
        if (req.participant!.key === "call_claude") return "DECISION: MERGE\nREASONING: both.";
        return undefined;
      }),
    });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(revisionOf(events, "call_grok")).toMatchObject({
      decision: "REVISE",
      parseSuccess: true,
      revisedResponse: "The new answer: it depends on the sector.",
    });
    // Nothing after the block either: the original answer.
    expect(revisionOf(events, "call_claude")).toMatchObject({ decision: "MERGE", revisedResponse: answerOf("Claude", 1) });
  });

  it("All models STAND", async () => {
    const { deps, models } = testDeps({
      script: withOverrides((req) =>
        req.phase === "revision" ? "DECISION: STAND\nREASONING: Mine covers it.\n\nREVISED RESPONSE:\n(my original)" : undefined,
      ),
    });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(named(events, "revision-complete")[0].data.summary).toEqual({ totalModels: 3, revised: 0, stood: 3, merged: 0, parseFailed: 0 });
    for (const r of revisionsOf(events)) expect(r.revisedResponse).toBe(r.originalResponse);
    const ballot = promptOf(models.callsOf("ballot", "call_gpt")[0].messages);
    expect(ballot).toContain(answerOf("Grok", 1));
    expect(named(events, "winner-declared")[0].data.winnerDecision).toBe("STAND");
  });

  it("All models vote for themselves", async () => {
    const { deps } = testDeps({ script: votesFor({ call_grok: "Grok", call_claude: "Claude", call_gpt: "ChatGPT" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    const vote = named(events, "vote-complete")[0].data;
    expect(vote).toMatchObject({ isTie: true, tiedLabels: ["Response A", "Response B", "Response C"] });
    expect(named(events, "winner-declared")[0].data).toMatchObject({
      winnerLabel: "Response A",
      tiebroken: true,
      tiebreakerMethod: "alphabetical",
      voteCount: 1,
    });
  });

  it("A model votes for its own revised response", async () => {
    const { deps } = testDeps({ script: votesFor({ call_grok: "Grok", call_claude: "Grok", call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(named(events, "winner-declared")[0].data).toMatchObject({ winnerDisplay: "Grok", voteCount: 2, tiebroken: false });
  });

  it("Vote parsing fails for a model", async () => {
    const { deps } = testDeps({ script: votesFor({ call_grok: "Claude", call_claude: { text: "All good." }, call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(named(events, "vote-complete")[0].data).toMatchObject({ validVoteCount: 2, invalidVoteCount: 1 });
  });

  it("All vote parses fail", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "ballot" ? "No opinion." : undefined)) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(stepNames(events).slice(-3)).toEqual(["vote-complete", "error", "done"]);
    expect(named(events, "error")[0]).toMatchObject({ code: "all_votes_invalid", message: "All votes failed to parse." });
    // Stage 1 and the revisions were delivered.
    expect(named(events, "round1-complete")[0].data).toHaveLength(3);
    expect(revisionsOf(events)).toHaveLength(3);
  });

  it("Two-way tie in voting", async () => {
    const { deps } = testDeps({ script: votesFor({ call_grok: "Claude", call_claude: "Grok", call_gpt: "Claude", call_gemini: "Grok" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: FOUR });
    const vote = named(events, "vote-complete")[0].data;
    expect(vote.isTie).toBe(true);
    expect(vote.tiedLabels).toHaveLength(2);
    const first = [...vote.tiedLabels].sort()[0];
    expect(named(events, "winner-declared")[0].data).toMatchObject({
      winnerLabel: first,
      tiebroken: true,
      tiebreakerMethod: "alphabetical",
      voteCount: 2,
      totalVotes: 4,
    });
    expect(stepNames(events)).not.toContain("tiebreaker-start");
  });

  it("N-way tie (all different votes)", async () => {
    const { deps, models } = testDeps({ script: votesFor({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Grok" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(named(events, "winner-declared")[0].data).toMatchObject({ winnerLabel: "Response A", tiebroken: true, tiebreakerMethod: "alphabetical" });
    expect(models.callsOf("tiebreaker")).toHaveLength(0);
  });

  it("Timeout (Stage 1)", async () => {
    const { deps } = testDeps({ script: withOverrides(on("answer", ["call_gemini"], { text: "late", latencyMs: 5_000 })) });
    const events = await runEvents(deps, "/revise Q?", { participants: FOUR, configurable: { response_timeout_ms: 200 } });
    expect(named(events, "round1-complete")[0].failed).toEqual([
      expect.objectContaining({ modelKey: "call_gemini", error: "timeout: timed out after 200 ms" }),
    ]);
    expect(revisionsOf(events)).toHaveLength(3);
  });

  it("Timeout (Stage 2)", async () => {
    const { deps } = testDeps({ script: withOverrides(on("revision", ["call_gpt"], { text: "late", latencyMs: 5_000 })) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE, configurable: { response_timeout_ms: 200 } });
    expect(revisionOf(events, "call_gpt")).toMatchObject({
      decision: null,
      parseSuccess: false,
      revisedResponse: answerOf("ChatGPT", 1),
      error: "timeout: timed out after 200 ms",
    });
  });

  it("Timeout (Stage 3)", async () => {
    const { deps } = testDeps({ script: votesFor({ call_grok: "Claude", call_claude: { text: "VOTE: Response A", latencyMs: 5_000 }, call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE, configurable: { response_timeout_ms: 200 } });
    const vote = named(events, "vote-complete")[0].data;
    expect(vote.votes.find((v: { modelKey: string }) => v.modelKey === "call_claude")).toMatchObject({
      votedFor: null,
      error: "timeout: timed out after 200 ms",
    });
    expect(vote).toMatchObject({ validVoteCount: 2, invalidVoteCount: 1 });
  });

  it("Conversation mode mismatch", async () => {
    const { deps } = testDeps();
    const checkpointer = new MemorySaver();
    await runEvents(deps, "/vote Q?", { participants: THREE, checkpointer, threadId: "t" });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE, checkpointer, threadId: "t" });
    expect(stepNames(events)).toEqual(["error", "done"]);
    expect(named(events, "error")[0]).toMatchObject({
      code: "mode_mismatch",
      message: "this conversation is a /vote conversation; start a new one for /revise",
    });
  });

  it("Debate on follow-up question", async () => {
    const { deps } = testDeps();
    const checkpointer = new MemorySaver();
    const first = await runEvents(deps, "/revise Q?", { participants: THREE, checkpointer, threadId: "t" });
    expect(stepNames(first)).toContain("complete");
    const again = await runEvents(deps, "/revise And then?", { participants: THREE, checkpointer, threadId: "t" });
    expect(stepNames(again)).toEqual(["error", "done"]);
    expect(named(again, "error")[0].code).toBe("follow_up_unsupported");
    // A thread that has other messages is a follow-up too.
    const chatted = graphOf(deps, { checkpointer });
    await chatted.invoke({ message: "hello" }, { configurable: { thread_id: "c" } });
    expect(named(await runEvents(deps, "/revise Q?", { participants: THREE, checkpointer, threadId: "c" }), "error")[0].code).toBe("follow_up_unsupported");
  });

  it("Duplicate models in config", async () => {
    const { deps, models } = testDeps({ settings: { allowedModels: ["openai/o3"] } });
    const events = await runEvents(deps, "/revise Q?", { modeConfig: { models: ["openai/o3", "openai/o3", "call_grok", "call_grok"] } });
    const who = named(events, "debate-start")[0].participants;
    expect(who.map((p: { modelKey: string }) => p.modelKey)).toEqual(["model_openai_o3", "model_openai_o3_2", "call_grok", "call_grok_2"]);
    expect(who.map((p: { display: string }) => p.display)).toEqual(["o3", "o3 (2)", "Grok", "Grok (2)"]);
    expect(models.callsOf("answer")).toHaveLength(4);
    expect(Object.keys(named(events, "revision-start")[0].data.labelMap)).toEqual(["Response A", "Response B", "Response C", "Response D"]);
    expect(named(events, "vote-complete")[0].data.votes).toHaveLength(4);
  });

  it("Model output too short in revision", async () => {
    const { deps } = testDeps({ script: withOverrides(on("revision", ["call_gpt"], "DECISION: REVISE\nREASONING: brevity.\n\nREVISED RESPONSE:\nYes.")) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(revisionOf(events, "call_gpt")).toMatchObject({ decision: "REVISE", parseSuccess: true, revisedResponse: "Yes.", revisedWordCount: 1 });
  });

  it("Model includes markdown/formatting in DECISION line", async () => {
    const { deps } = testDeps({
      script: withOverrides(
        on("revision", ["call_grok"], "**Decision:** **MERGE**\n**Reasoning:** A and C together.\n\n**REVISED RESPONSE:**\nMerged answer."),
      ),
    });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    expect(revisionOf(events, "call_grok")).toMatchObject({
      decision: "MERGE",
      reasoning: "A and C together.",
      revisedResponse: "Merged answer.",
      parseSuccess: true,
    });
  });
});

describe("/revise over HTTP and in Studio", () => {
  it("runs the seed's example request (mode `debate`) on POST /api/v1/deliberate/stream", async () => {
    const { deps } = testDeps({ settings: { allowedModels: "*" } });
    const server = await startApp(deps);
    try {
      const res = await postDeliberate(server.url, {
        question: "Should companies adopt a 4-day work week?",
        mode: "debate",
        modeConfig: { models: ["anthropic/claude-opus-4-6", "openai/o3", "google/gemini-2.5-pro", "perplexity/sonar-pro"] },
      });
      const { events } = await readSse(res);
      expect(idsAreGapless(events)).toBe(true);
      const seq = stepNames(events);
      expect(seq.slice(0, 3)).toEqual(["metadata", "debate-start", "round1-start"]);
      expect(seq.slice(-4)).toEqual(["title-complete", "complete", "usage", "done"]);
    } finally {
      await server.close();
    }
  });

  it.each([
    { body: { question: "Q?", mode: "debate", modeConfig: { models: ["a/b", "c/d"] } }, message: "Debate mode requires at least 3 models" },
    { body: { question: "Q?", mode: "debate", modeConfig: { models: "abcdefg".split("").map((x) => `v/${x}`) } }, message: "Maximum 6 models allowed" },
    { body: { question: "Q?", mode: "debate", modeConfig: { timeoutMs: 600_001 } }, message: "modeConfig.timeoutMs: Too big" },
    { body: { question: "Q?", mode: "debate", modeConfig: { chairmanModel: "a/b" } }, message: "unknown field(s): chairmanModel" },
    { body: { question: "Q?", mode: "revise" }, message: "mode must be one of: vote, debate, deep, council" },
  ])("refuses $body.modeConfig / $body.mode with a 400 naming the problem", async ({ body, message }) => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const res = await postDeliberate(server.url, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toContain(message);
    } finally {
      await server.close();
    }
  });

  it("is a subgraph of the graph, so Studio shows it", async () => {
    const { deps } = testDeps();
    const ids = Object.values((await graphOf(deps).getGraphAsync({ xray: true })).nodes).map((n) => n.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "revise:revise_planner",
        "revise:deliberation_answer",
        "revise:revise_anonymize",
        "revise:revise_revision",
        "revise:revise_relabel",
        "revise:deliberation_ballot",
        "revise:revise_tally",
        "revise:revise_declare_winner",
        "revise:deliberation_title",
      ]),
    );
  });
});

describe("/revise on the arena page's state", () => {
  it("builds the revisions, the vote on the revised answers and the winner from the events", async () => {
    const { deps } = testDeps({ script: votesFor({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/revise Q?", { participants: THREE });
    const page = events.reduce(reduce, emptyArena()).deliberation!;
    expect(page.mode).toBe("revise");
    expect(page.stage).toBe("complete");
    expect(page.revisions?.map((r) => r.decision)).toEqual(["REVISE", "REVISE", "REVISE"]);
    expect(page.revisionSummary).toMatchObject({ revised: 3 });
    expect(page.vote?.labelToModel).toEqual(named(events, "vote-start")[0].data.revisedLabelMap);
    expect(displayOfLabel(page, page.winner!.winnerLabel)).toBe("Claude");
    expect(page.winner?.winnerDecision).toBe("REVISE");
  });
});
