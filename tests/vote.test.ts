import { MemorySaver } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../ports/models.js";
import { identityNames, namesMentioned, redactSelfIdentification } from "../nodes/shared/anonymity.js";
import { cleanTitle } from "../state/replies/title.js";
import { parseLetterVote, tallyLetterVotes } from "../state/replies/letter-vote.js";
import { parseCommand } from "../state/commands.js";
import { strictEventSchema } from "../state/events.js";
import { defaultRoster } from "../state/participants.js";
import { errorWords, translate } from "../state/messages/index.js";
import { answerOf, withOverrides, type Script, type Step } from "./support/fake-model.js";
import { named, runEvents, testDeps, graphOf, stepNames } from "./support/harness.js";
import type { ClientEvent } from "../state/events.js";
import { emptyArena, reduce } from "../web/arena-state.js";
import { displayOfLabel } from "../web/deliberation-state.js";
import { idsAreGapless, postChat, postDeliberate, readSse, startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const FOUR = [...THREE, "call_gemini"];

/** The text of a call's prompt (all messages). */
const promptOf = (messages: BaseMessage[]) => messages.map((m) => String(m.content)).join("\n");

/** The label under which a participant's (default-scripted) answer appears in a vote prompt. */
function labelOf(messages: BaseMessage[], display: string): string {
  const blocks = [...promptOf(messages).matchAll(/--- (Response [A-Z])(?: \(\d+ votes\))? ---\n([^\n]*)/g)];
  const hit = blocks.find((b) => b[2].startsWith(`${display} says`));
  if (!hit) throw new Error(`no answer of ${display} in the prompt`);
  return hit[1];
}

/** A script in which each voter (by key) votes for the answer of the named participant. */
function votes(choices: Record<string, string | Step>, tiebreak?: (req: ModelRequest, i: number, messages: BaseMessage[]) => Step | string | undefined) {
  return withOverrides((req, i, messages) => {
    if (req.phase === "tiebreaker") return tiebreak?.(req, i, messages);
    if (req.phase !== "ballot") return undefined;
    const choice = choices[req.participant!.key];
    if (choice === undefined) return undefined;
    if (typeof choice !== "string") return choice;
    return `Reasoning first.\nVOTE: ${labelOf(messages, choice)}`;
  });
}

const failAnswer =
  (keys: string[], step: Step = { error: new Error("provider 500") }) =>
  (req: ModelRequest) =>
    req.phase === "answer" && keys.includes(req.participant!.key) ? step : undefined;

/** Every answer and vote of `script` takes `ms` before its first token. */
const withLatency =
  (script: Script, ms: number): Script =>
  (req, i, messages) => {
    const raw = script(req, i, messages);
    const step = typeof raw === "string" ? { text: raw } : raw;
    return req.phase === "answer" || req.phase === "ballot" ? { ...step, latencyMs: ms } : step;
  };

describe("/vote: command and parsing (seed 001 §B)", () => {
  it("is its own command", () => {
    expect(parseCommand(" /VOTE Vilket språk?")).toEqual({ kind: "deliberation", mode: "vote", question: "Vilket språk?", options: {} });
    expect(parseCommand("/vote")).toEqual({ kind: "missing_topic", command: "/vote" });
    expect(parseCommand("/voter x")).toEqual({ kind: "chat", text: "/voter x" });
  });

  it("parses the LAST `VOTE: Response X`, else the last `Response X`, else nothing", () => {
    expect(parseLetterVote("I considered VOTE: Response A but no.\nVOTE: Response C")).toBe("Response C");
    expect(parseLetterVote("vote: response b")).toBe("Response B");
    expect(parseLetterVote("Response A is good, but Response D is better.")).toBe("Response D");
    expect(parseLetterVote("I like the second one.")).toBeNull();
  });

  it("tallies the seed's way: invalid labels excluded, ties listed", () => {
    const labels = new Set(["Response A", "Response B", "Response C"]);
    const t = tallyLetterVotes([{ votedFor: "Response A" }, { votedFor: "Response B" }, { votedFor: "Response F" }, { votedFor: null }], labels);
    expect(t).toEqual({
      tallies: { "Response A": 1, "Response B": 1 },
      validVoteCount: 2,
      invalidVoteCount: 2,
      winners: ["Response A", "Response B"],
      isTie: true,
    });
  });

  it("cleans a model's title reply", () => {
    expect(cleanTitle('"Best Web API Languages."\nBecause…')).toBe("Best Web API Languages");
    expect(cleanTitle("Title: Rust vs Go!")).toBe("Rust vs Go");
  });
});

describe("/vote: the pipeline and event sequence (seed 001 §C)", () => {
  it("answers in parallel, votes in parallel, declares the plurality winner's ORIGINAL answer, titles and completes", async () => {
    const script = withLatency(votes({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Claude" }), 150);
    const { deps, models } = testDeps({ script });
    const events = await runEvents(deps, "/vote What is the best language for web APIs?", { participants: THREE, threadId: "conv-1" });

    expect(stepNames(events)).toEqual([
      "vote-start",
      "stage1-start",
      "stage1-complete",
      "vote-round-start",
      "vote-round-complete",
      "winner-declared",
      "title-complete",
      "complete",
      "done",
    ]);
    // Two parallel stages, not six sequential calls.
    for (const phase of ["answer", "ballot"] as const) expect(models.callsOf(phase).map((c) => c.answeredBefore)).toEqual([0, 0, 0]);
    for (const e of events.slice(0, -1)) {
      expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    }
    const start = named(events, "vote-start")[0];
    expect(start).toMatchObject({ conversationId: "conv-1", mode: "vote" });
    expect(start.messageId).toMatch(/^[0-9a-f-]{36}$/);
    const stage1 = named(events, "stage1-complete")[0].data;
    expect(stage1.map((r: { modelKey: string }) => r.modelKey)).toEqual(THREE);

    const round = named(events, "vote-round-complete")[0].data;
    expect(round).toMatchObject({ validVoteCount: 3, invalidVoteCount: 0, isTie: false, tiedLabels: [] });
    const claudeLabel = Object.entries(round.labelToModel).find(([, m]) => m === "anthropic/claude-sonnet-4.5")![0];
    expect(round.tallies[claudeLabel]).toBe(2);
    const winner = named(events, "winner-declared")[0].data;
    expect(winner).toMatchObject({
      winnerLabel: claudeLabel,
      winnerModel: "anthropic/claude-sonnet-4.5",
      winnerDisplay: "Claude",
      voteCount: 2,
      totalVotes: 3,
      tiebroken: false,
    });
    expect(winner.winnerResponse).toBe(answerOf("Claude", 1));
    expect(winner.tiebreakerModel).toBeUndefined();
    expect(named(events, "title-complete")[0].data).toEqual({ title: "A Scripted Title" });
    expect(models.callsOf("tiebreaker")).toHaveLength(0);
    // The answer deltas stream stage 1 and the votes live.
    const deltas = named(events, "answer-delta");
    expect(
      deltas
        .filter((d) => d.stage === "collect" && d.modelKey === "call_gpt")
        .map((d) => d.delta)
        .join(""),
    ).toBe(answerOf("ChatGPT", 1));
    expect(deltas.some((d) => d.stage === "vote")).toBe(true);
  });

  it("takes the models, the chairman and the timeout from modeConfig, model ids included", async () => {
    const { deps, models } = testDeps({ script: votes({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Grok" }) });
    const events = await runEvents(deps, "/vote Q?", {
      modeConfig: { models: ["x-ai/grok-4", "Claude", "call_gpt"], chairman: "google/gemini-2.5-pro", timeoutMs: 30_000 },
    });
    expect(named(events, "vote-start")[0].participants.map((p: { modelKey: string }) => p.modelKey)).toEqual(THREE);
    expect(named(events, "vote-start")[0].chairman).toMatchObject({ model: "google/gemini-2.5-pro", display: "Gemini" });
    expect(named(events, "tiebreaker-complete")[0].data.model).toBe("google/gemini-2.5-pro");
    expect(models.callsOf("tiebreaker", "call_gemini")).toHaveLength(1);
  });

  it("accepts 3–7 models and refuses other counts with an error that says so", async () => {
    const { deps } = testDeps();
    const two = await runEvents(deps, "/vote Q?", { participants: ["call_grok", "call_claude"] });
    expect(named(two, "error")[0]).toMatchObject({ code: "invalid_participants", message: "/vote needs 3–7 models, 2 requested" });
    expect(stepNames(two)).toEqual(["error", "done"]);
    const eight = await runEvents(deps, "/vote Q?", { modeConfig: { models: defaultRoster().map((p) => p.key) } });
    expect(named(eight, "error")[0].message).toBe("/vote needs 3–7 models, 8 requested");
    const byDefault = await runEvents(deps, "/vote Q?");
    expect(named(byDefault, "vote-start")[0].participants).toHaveLength(7);
    const unknown = await runEvents(deps, "/vote Q?", { modeConfig: { models: ["call_grok", "call_claude", "grokk"] } });
    expect(named(unknown, "error")[0].message).toMatch(/^unknown participant "grokk"/);
    // The page and the terminal word the refusal themselves, from its values.
    const [refusal] = named(unknown, "error");
    expect(errorWords((key, values) => translate("sv", key, values), refusal.code, refusal.message, refusal.reason)).toBe(
      `De här deltagarna kan inte vara med: ”grokk” är ingen deltagare; använd en nyckel ur listan (${defaultRoster()
        .map((p) => p.key)
        .join(", ")}), ett visningsnamn eller ett modell-id som leverantör/modell`,
    );
  });

  it("takes its prompts from the registry, overridable per run", async () => {
    const { deps, models } = testDeps();
    await runEvents(deps, "/vote Q?", {
      participants: THREE,
      configurable: { prompt_overrides: { "vote.ballot": "Pick one for {question}:\n{responses}END", "deliberation.title": "Title for {question}" } },
    });
    const ballot = promptOf(models.callsOf("ballot", "call_grok")[0].messages);
    expect(ballot).toMatch(/^Pick one for Q\?:\n--- Response A ---\n/);
    expect(ballot.endsWith("END")).toBe(true);
    expect(promptOf(models.callsOf("title")[0].messages)).toBe("Title for Q?");
  });
});

describe("/vote: anonymisation", () => {
  it("shuffles the labels per vote (the run seed fixes them)", async () => {
    const maps: string[] = [];
    for (const seed of [1, 2, 3, 4, 1]) {
      const { deps } = testDeps();
      const events = await runEvents(deps, "/vote Q?", { participants: FOUR, configurable: { seed } });
      maps.push(JSON.stringify(named(events, "vote-round-complete")[0].data.labelToModel));
    }
    expect(new Set(maps.slice(0, 4)).size).toBeGreaterThan(1);
    expect(maps[4]).toBe(maps[0]);
  });

  it("never shows voters or the chairman who wrote an answer, and removes self-identification", async () => {
    const script = withOverrides((req) => {
      if (req.phase === "answer") {
        return {
          call_grok: "I'm Grok, and Rust wins.",
          call_claude: "As Claude, I'd pick Go. I'm an AI assistant developed by Anthropic.",
          call_gpt: "This is ChatGPT (OpenAI): TypeScript.",
        }[req.participant!.key];
      }
      // Three different votes: a tie, so the chairman reads the answers too.
      if (req.phase === "ballot") return `VOTE: Response ${{ call_grok: "A", call_claude: "B", call_gpt: "C" }[req.participant!.key]}`;
      return undefined;
    });
    const { deps, models } = testDeps({ script });
    await runEvents(deps, "/vote Which language?", { participants: THREE });
    const seen = [...models.callsOf("ballot"), ...models.callsOf("tiebreaker")].map((c) => promptOf(c.messages));
    expect(seen.length).toBeGreaterThan(3);
    for (const prompt of seen) {
      for (const p of defaultRoster().slice(0, 3)) {
        expect(prompt).not.toContain(p.model);
        expect(prompt).not.toMatch(new RegExp(`\\b${p.display}\\b`));
      }
      expect(prompt).not.toMatch(/Anthropic|OpenAI/);
      expect(prompt).toContain("As [a model], I'd pick Go. I'm an AI assistant developed by [a model].");
      expect(prompt).toContain("I'm [a model], and Rust wins.");
    }
    // Stage 1 never tells a model its own name.
    expect(promptOf(models.callsOf("answer", "call_grok")[0].messages)).not.toMatch(/Grok/);
  });

  it("flags a vote whose text names a participant or vendor", async () => {
    const script = withOverrides((req) =>
      req.phase === "ballot" && req.participant!.key === "call_grok" ? "Response B reads like Claude from Anthropic.\nVOTE: Response B" : undefined,
    );
    const { deps } = testDeps({ script });
    const events = await runEvents(deps, "/vote Which language?", { participants: THREE });
    const round = named(events, "vote-round-complete")[0].data;
    expect(round.votes.find((v: { modelKey: string }) => v.modelKey === "call_grok").anonymityBreach).toEqual(["Claude", "Anthropic"]);
    expect(round.anonymityFlagged).toBe(1);
  });

  it("knows the identity names and leaves mentions the question asked for", () => {
    const ids = identityNames(defaultRoster());
    expect(ids).toEqual(expect.arrayContaining(["Grok", "x-ai", "Claude", "Anthropic", "ChatGPT", "OpenAI", "Qwen"]));
    expect(namesMentioned("Claude is better than GPT here", ids, "Is Claude better than GPT?")).toEqual([]);
    expect(redactSelfIdentification("As Google suggests, caching helps.", ids)).toBe("As Google suggests, caching helps.");
  });
});

describe("/vote: every edge case of seed 001 §F", () => {
  it("All council models fail in Stage 1", async () => {
    const { deps, models } = testDeps({ script: withOverrides(failAnswer(THREE)) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    expect(stepNames(events)).toEqual(["vote-start", "stage1-start", "stage1-complete", "error", "done"]);
    expect(named(events, "stage1-complete")[0]).toMatchObject({ data: [] });
    expect(named(events, "stage1-complete")[0].failed).toHaveLength(3);
    expect(named(events, "error")[0].code).toBe("all_models_failed");
    expect(models.callsOf("ballot")).toHaveLength(0);
  });

  it("Some models fail in Stage 1", async () => {
    const { deps, models } = testDeps({ script: withOverrides(failAnswer(["call_gemini"])) });
    const events = await runEvents(deps, "/vote Q?", { participants: FOUR });
    expect(named(events, "stage1-complete")[0].data).toHaveLength(3);
    expect(named(events, "stage1-complete")[0].failed).toEqual([expect.objectContaining({ modelKey: "call_gemini", error: "provider 500" })]);
    expect(Object.keys(named(events, "vote-round-complete")[0].data.labelToModel)).toEqual(["Response A", "Response B", "Response C"]);
    expect(
      models
        .callsOf("ballot")
        .map((c) => c.participant)
        .sort(),
    ).toEqual(["call_claude", "call_gpt", "call_grok"]);
    expect(stepNames(events)).toContain("winner-declared");

    // Fewer than 2 successful answers: error.
    const one = testDeps({ script: withOverrides(failAnswer(["call_grok", "call_claude"])) });
    const alone = await runEvents(one.deps, "/vote Q?", { participants: THREE });
    expect(named(alone, "error")[0]).toMatchObject({ code: "too_few_answers" });
    expect(stepNames(alone)).not.toContain("vote-round-start");
  });

  it("Only 2 models succeed in Stage 1", async () => {
    const { deps, models } = testDeps({ script: withOverrides(failAnswer(["call_gpt"])) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    const round = named(events, "vote-round-complete")[0].data;
    expect(Object.keys(round.labelToModel)).toEqual(["Response A", "Response B"]);
    expect(
      models
        .callsOf("ballot")
        .map((c) => c.participant)
        .sort(),
    ).toEqual(["call_claude", "call_grok"]);
    expect(round.votes).toHaveLength(2);
  });

  it("Vote parsing fails for one model", async () => {
    const { deps } = testDeps({ script: votes({ call_grok: "Claude", call_claude: { text: "I cannot decide." }, call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    const round = named(events, "vote-round-complete")[0].data;
    expect(round).toMatchObject({ validVoteCount: 2, invalidVoteCount: 1 });
    expect(round.votes.find((v: { modelKey: string }) => v.modelKey === "call_claude")).toMatchObject({ votedFor: null, voteText: "I cannot decide." });
    expect(named(events, "winner-declared")[0].data.winnerDisplay).toBe("Claude");
  });

  it("All vote parses fail", async () => {
    const { deps } = testDeps({ script: withOverrides((req) => (req.phase === "ballot" ? "No idea." : undefined)) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    expect(stepNames(events)).toEqual(["vote-start", "stage1-start", "stage1-complete", "vote-round-start", "vote-round-complete", "error", "done"]);
    expect(named(events, "error")[0]).toMatchObject({ code: "all_votes_invalid", message: "All votes failed to parse." });
    // Stage 1 is still delivered.
    expect(named(events, "stage1-complete")[0].data).toHaveLength(3);
  });

  it("Only one valid vote", async () => {
    const { deps, models } = testDeps({ script: votes({ call_grok: "ChatGPT", call_claude: { text: "?" }, call_gpt: { error: new Error("down") } }) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    expect(named(events, "winner-declared")[0].data).toMatchObject({ winnerDisplay: "ChatGPT", voteCount: 1, totalVotes: 1, tiebroken: false });
    expect(models.callsOf("tiebreaker")).toHaveLength(0);
  });

  it("Clear plurality winner", async () => {
    const { deps } = testDeps({ script: votes({ call_grok: "Gemini", call_claude: "Gemini", call_gpt: "Grok", call_gemini: "Claude" }) });
    const events = await runEvents(deps, "/vote Q?", { participants: FOUR });
    expect(stepNames(events)).not.toContain("tiebreaker-start");
    const winner = named(events, "winner-declared")[0].data;
    expect(winner).toMatchObject({ winnerDisplay: "Gemini", voteCount: 2, totalVotes: 4, tiebroken: false });
    expect(winner.winnerResponse).toBe(named(events, "stage1-complete")[0].data.find((r: { modelKey: string }) => r.modelKey === "call_gemini").response);
  });

  it("Two-way tie", async () => {
    const { deps, models } = testDeps({
      script: votes(
        { call_grok: "Claude", call_claude: "Grok", call_gpt: "Claude", call_gemini: "Grok" },
        (_req, _i, messages) => `VOTE: ${labelOf(messages, "Grok")}`,
      ),
    });
    const events = await runEvents(deps, "/vote Q?", { participants: FOUR });
    expect(stepNames(events)).toEqual([
      "vote-start",
      "stage1-start",
      "stage1-complete",
      "vote-round-start",
      "vote-round-complete",
      "tiebreaker-start",
      "tiebreaker-complete",
      "winner-declared",
      "title-complete",
      "complete",
      "done",
    ]);
    const round = named(events, "vote-round-complete")[0].data;
    expect(round.isTie).toBe(true);
    expect(round.tiedLabels).toHaveLength(2);
    const prompt = promptOf(models.callsOf("tiebreaker")[0].messages);
    // The chairman sees the two tied answers with their counts, and nothing else.
    expect(prompt.match(/^--- Response [A-Z] \(2 votes\) ---$/gm)).toHaveLength(2);
    expect(prompt).toContain(answerOf("Claude", 1));
    expect(prompt).not.toContain(answerOf("ChatGPT", 1));
    expect(named(events, "tiebreaker-complete")[0].data).toMatchObject({ model: "openai/gpt-4.1-mini", attempts: 1, fallback: false });
    expect(named(events, "winner-declared")[0].data).toMatchObject({
      winnerDisplay: "Grok",
      voteCount: 2,
      totalVotes: 4,
      tiebroken: true,
      tiebreakerModel: "openai/gpt-4.1-mini",
    });
  });

  it("N-way tie (all different)", async () => {
    const { deps, models } = testDeps({
      script: votes({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Grok" }, (_req, _i, messages) => `VOTE: ${labelOf(messages, "ChatGPT")}`),
    });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    expect(named(events, "vote-round-complete")[0].data.tiedLabels).toEqual(["Response A", "Response B", "Response C"]);
    expect(promptOf(models.callsOf("tiebreaker")[0].messages).match(/\(1 votes\)/g)).toHaveLength(3);
    expect(named(events, "winner-declared")[0].data).toMatchObject({ winnerDisplay: "ChatGPT", voteCount: 1, tiebroken: true });
  });

  it("Chairman fails during tiebreaker", async () => {
    const { deps } = testDeps({
      script: votes({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Grok" }, () => ({ error: new Error("chairman 503") })),
    });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    expect(stepNames(events).slice(-4)).toEqual(["vote-round-complete", "tiebreaker-start", "error", "done"]);
    expect(named(events, "error")[0]).toMatchObject({ code: "chairman_failed" });
    expect(named(events, "error")[0].message).toMatch(/chairman 503/);
    expect(stepNames(events)).not.toContain("winner-declared");
  });

  it("Chairman tiebreaker vote parse fails", async () => {
    // The retry parses: its pick wins, the same prompt was sent twice.
    const retried = testDeps({
      script: votes({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: "Grok" }, (_req, i, messages) =>
        retried.models.callsOf("tiebreaker").length === 1 ? "Hmm, all good." : `VOTE: ${labelOf(messages, "Claude")}`,
      ),
    });
    const a = await runEvents(retried.deps, "/vote Q?", { participants: THREE });
    const calls = retried.models.callsOf("tiebreaker");
    expect(calls).toHaveLength(2);
    expect(promptOf(calls[1].messages)).toBe(promptOf(calls[0].messages));
    expect(named(a, "tiebreaker-complete")[0].data).toMatchObject({ attempts: 2, fallback: false });
    expect(named(a, "winner-declared")[0].data.winnerDisplay).toBe("Claude");

    // Both unparsable (or outside the tie): the first tied label alphabetically.
    const failing = testDeps({
      script: votes({ call_grok: "Claude", call_claude: "ChatGPT", call_gpt: { text: "VOTE: Response Z" } }, () => "VOTE: Response Q"),
    });
    const b = await runEvents(failing.deps, "/vote Q?", { participants: THREE });
    const tied = named(b, "vote-round-complete")[0].data.tiedLabels;
    expect(tied).toHaveLength(2);
    expect(failing.models.callsOf("tiebreaker")).toHaveLength(2);
    expect(named(b, "tiebreaker-complete")[0].data).toMatchObject({ votedFor: [...tied].sort()[0], attempts: 2, fallback: true });
    expect(named(b, "winner-declared")[0].data).toMatchObject({ winnerLabel: [...tied].sort()[0], tiebroken: true });
  });

  it("A model votes for a non-existent label", async () => {
    const { deps } = testDeps({ script: votes({ call_grok: { text: "VOTE: Response F" }, call_claude: "Grok", call_gpt: "Grok" }) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    const round = named(events, "vote-round-complete")[0].data;
    expect(round.votes.find((v: { modelKey: string }) => v.modelKey === "call_grok").votedFor).toBe("Response F");
    expect(round).toMatchObject({ validVoteCount: 2, invalidVoteCount: 1 });
    expect(round.tallies["Response F"]).toBeUndefined();
  });

  it("A model votes for its own response", async () => {
    const { deps } = testDeps({ script: votes({ call_grok: "Grok", call_claude: "Grok", call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE });
    expect(named(events, "winner-declared")[0].data).toMatchObject({ winnerDisplay: "Grok", voteCount: 2, totalVotes: 3 });
  });

  it("Timeout (Stage 1)", async () => {
    const { deps } = testDeps({ script: withOverrides(failAnswer(["call_gpt"], { text: "too late", latencyMs: 5_000 })) });
    const events = await runEvents(deps, "/vote Q?", { participants: FOUR, configurable: { response_timeout_ms: 200 } });
    const failed = named(events, "stage1-complete")[0].failed;
    expect(failed).toEqual([expect.objectContaining({ modelKey: "call_gpt", error: "timeout: timed out after 200 ms" })]);
    expect(Object.keys(named(events, "vote-round-complete")[0].data.labelToModel)).toHaveLength(3);
  });

  it("Timeout (Stage 2)", async () => {
    const { deps } = testDeps({ script: votes({ call_grok: "Claude", call_claude: { text: "VOTE: Response A", latencyMs: 5_000 }, call_gpt: "Claude" }) });
    const events = await runEvents(deps, "/vote Q?", { participants: THREE, configurable: { response_timeout_ms: 200 } });
    const round = named(events, "vote-round-complete")[0].data;
    expect(round.votes.find((v: { modelKey: string }) => v.modelKey === "call_claude")).toMatchObject({
      votedFor: null,
      error: "timeout: timed out after 200 ms",
    });
    expect(round).toMatchObject({ validVoteCount: 2, invalidVoteCount: 1 });
  });

  it("Multi-turn history too large", async () => {
    const { deps, models } = testDeps();
    const checkpointer = new MemorySaver();
    for (let turn = 1; turn <= 12; turn++) {
      const events = await runEvents(deps, `/vote Question ${turn}?`, { participants: THREE, checkpointer, threadId: "long" });
      // Only the first question of a conversation gets a title.
      expect(stepNames(events).includes("title-complete")).toBe(turn === 1);
      expect(stepNames(events)).toContain("complete");
    }
    const last = models.callsOf("answer", "call_grok").at(-1)!.messages;
    // System prompt, 10 turns of history (question and winning answer), the question.
    expect(last).toHaveLength(1 + 20 + 1);
    expect(String(last[1].content)).toBe("Question 2?");
    expect(String(last[2].content)).toMatch(/ says in round 1:/);
    expect(String(last.at(-1)!.content)).toBe("Question 12?");
  });

  it("Conversation mode mismatch", async () => {
    const { deps } = testDeps();
    const checkpointer = new MemorySaver();
    const graph = graphOf(deps, { checkpointer });
    await runEvents(deps, "/vote Q?", { participants: THREE, checkpointer, threadId: "t" });
    await graph.updateState({ configurable: { thread_id: "t" } }, { conversation_mode: "revise" as never });
    const events = await runEvents(deps, "/vote Follow-up?", { participants: THREE, checkpointer, threadId: "t" });
    expect(named(events, "error")[0]).toMatchObject({ code: "mode_mismatch" });
    expect(stepNames(events)).toEqual(["error", "done"]);
  });
});

describe("/vote over HTTP", () => {
  it("runs the seed's example request on POST /api/v1/deliberate/stream, events in kebab-case", async () => {
    const { deps, models } = testDeps({
      settings: { allowedModels: ["anthropic/claude-opus-4-6", "openai/o3", "google/gemini-2.5-pro", "perplexity/sonar-pro"] },
    });
    const server = await startApp(deps);
    try {
      const res = await postDeliberate(server.url, {
        question: "What is the best programming language for building web APIs in 2026?",
        mode: "vote",
        modeConfig: {
          councilModels: ["anthropic/claude-opus-4-6", "openai/o3", "google/gemini-2.5-pro", "perplexity/sonar-pro"],
          chairmanModel: "anthropic/claude-opus-4-6",
        },
      });
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const { events } = await readSse(res);
      expect(idsAreGapless(events)).toBe(true);
      const seq = stepNames(events);
      expect(seq[0]).toBe("metadata");
      expect(seq.slice(1, 4)).toEqual(["vote-start", "stage1-start", "stage1-complete"]);
      expect(seq.slice(-4)).toEqual(["title-complete", "complete", "usage", "done"]);
      const start = events.find((e) => e.event === "vote-start")!.data as Record<string, any>;
      // Model ids not on the roster are asked as they are; the roster's Gemini is matched by its id.
      expect(start.participants.map((p: { model: string }) => p.model)).toEqual([
        "anthropic/claude-opus-4-6",
        "openai/o3",
        "google/gemini-2.5-pro",
        "perplexity/sonar-pro",
      ]);
      expect(start.participants.map((p: { display: string }) => p.display)).toEqual(["claude-opus-4-6", "o3", "Gemini", "Perplexity"]);
      expect(start.chairman.model).toBe("anthropic/claude-opus-4-6");
      expect(models.callsOf("answer")).toHaveLength(4);

      // The page's state, built from the same events.
      const page = (events.slice(1) as ClientEvent[]).reduce(reduce, emptyArena());
      const v = page.deliberation!;
      expect(v.stage).toBe("complete");
      expect(Object.values(v.answers).map((a) => a.status)).toEqual(["ok", "ok", "ok", "ok"]);
      expect(v.answers["model_openai_o3"].text).toBe(answerOf("o3", 1));
      expect(Object.keys(v.ballots)).toHaveLength(4);
      expect(v.mode).toBe("vote");
      expect(v.winner?.winnerLabel).toBe("Response A");
      expect(displayOfLabel(v, "Response A")).toBe(v.winner?.winnerDisplay);
      expect(v.title).toBe("A Scripted Title");
      expect(page.debateId).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  const BAD: { name: string; body: unknown; status: number; message: string | RegExp }[] = [
    { name: "an unknown mode", body: { question: "Q?", mode: "poll" }, status: 400, message: "mode must be one of: vote, debate, deep, council" },
    { name: "no question", body: { mode: "vote" }, status: 400, message: "question must be a string" },
    { name: "an empty question", body: { question: " ", mode: "vote" }, status: 400, message: "question is empty" },
    {
      name: "two models",
      body: { question: "Q?", mode: "vote", modeConfig: { councilModels: ["a/b", "c/d"] } },
      status: 400,
      message: "Vote mode requires at least 3 models",
    },
    {
      name: "eight models",
      body: { question: "Q?", mode: "vote", modeConfig: { councilModels: "abcdefgh".split("").map((x) => `v/${x}`) } },
      status: 400,
      message: "Maximum 7 models allowed",
    },
    {
      name: "a timeout under 10 s",
      body: { question: "Q?", mode: "vote", modeConfig: { timeoutMs: 5_000 } },
      status: 400,
      message: /modeConfig.timeoutMs: Too small: expected number to be >=10000/,
    },
    {
      name: "a timeout over 300 s",
      body: { question: "Q?", mode: "vote", modeConfig: { timeoutMs: 300_001 } },
      status: 400,
      message: /modeConfig.timeoutMs: Too big/,
    },
    {
      name: "a misspelt modeConfig field",
      body: { question: "Q?", mode: "vote", modeConfig: { councilModel: ["a/b"] } },
      status: 400,
      message: "unknown field(s): councilModel",
    },
    {
      name: "an unknown model name",
      body: { question: "Q?", mode: "vote", modeConfig: { councilModels: ["call_grok", "claude", "nobody"] } },
      status: 400,
      message: /^unknown participant "nobody"/,
    },
    {
      name: "the same model three times",
      body: { question: "Q?", mode: "vote", modeConfig: { councilModels: ["a/b", "a/b", "A/B"] } },
      status: 400,
      message: "/vote needs 3–7 models, 1 requested",
    },
    { name: "an unknown conversationId", body: { question: "Q?", mode: "vote", conversationId: "c-1" }, status: 404, message: /conversation "c-1" not found/ },
  ];
  it.each(BAD)("refuses $name with a $status that names the problem", async ({ body, status, message }) => {
    // Off-roster model ids allowed, so that the count is what is refused.
    const { deps } = testDeps({ settings: { allowedModels: "*" } });
    const server = await startApp(deps);
    try {
      const res = await postDeliberate(server.url, body);
      expect(res.status).toBe(status);
      const error = (await res.json()).error;
      if (typeof message === "string") expect(error.message).toContain(message);
      else expect(error.message).toMatch(message);
    } finally {
      await server.close();
    }
  });

  it("refuses a /vote chat message with a model count outside 3–7 before streaming", async () => {
    const { deps } = testDeps();
    const server = await startApp(deps);
    try {
      const res = await postChat(server.url, { message: "/vote Q?", participants: ["call_grok", "call_claude"] });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toEqual({
        code: "invalid_participants",
        message: "/vote needs 3–7 models, 2 requested",
        reason: { key: "modelCount", values: { command: "/vote", min: 3, max: 7, count: 2 } },
      });
    } finally {
      await server.close();
    }
  });
});

describe("/vote in Studio", () => {
  it("is a subgraph of the graph, so Studio shows its stages", async () => {
    const { deps } = testDeps();
    const drawn = await graphOf(deps).getGraphAsync({ xray: true });
    const ids = Object.values(drawn.nodes).map((n) => n.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "vote:vote_planner",
        "vote:deliberation_answer",
        "vote:vote_anonymize",
        "vote:deliberation_ballot",
        "vote:vote_tally",
        "vote:vote_tiebreak",
        "vote:vote_declare_winner",
        "vote:deliberation_title",
      ]),
    );
  });
});

describe("follow-ups on POST /api/v1/deliberate/stream (a checkpointed server)", () => {
  it("answers a /vote follow-up with the conversation's history, and refuses a mode mismatch, a single-turn follow-up and an unknown conversation", async () => {
    const { deps, models } = testDeps();
    const server = await startApp(deps, { checkpointer: new MemorySaver() });
    try {
      const { events: first } = await readSse(
        await postDeliberate(server.url, { question: "Best language for web APIs?", mode: "vote", modeConfig: { councilModels: THREE } }),
      );
      const conversationId = first[0].data.thread_id as string;
      const res = await postDeliberate(server.url, { question: "And for microservices?", mode: "vote", conversationId, modeConfig: { councilModels: THREE } });
      expect(res.status).toBe(200);
      const { events: second } = await readSse(res);
      expect(second.find((e) => e.event === "vote-start")!.data.conversationId).toBe(conversationId);
      // No title for a follow-up; the models see the first question and its winning answer.
      expect(second.some((e) => e.event === "title-complete")).toBe(false);
      const sent = models
        .callsOf("answer", "call_grok")
        .at(-1)!
        .messages.map((m) => String(m.content));
      expect(sent.slice(1)).toEqual(["Best language for web APIs?", expect.stringMatching(/ says in round 1:/), "And for microservices?"]);

      const mismatch = await postDeliberate(server.url, { question: "Q?", mode: "deep", conversationId });
      expect(mismatch.status).toBe(400);
      expect((await mismatch.json()).error).toMatchObject({
        code: "mode_mismatch",
        message: `conversation "${conversationId}" is a /vote conversation; a /deep question needs its own`,
      });

      const { events: revised } = await readSse(await postDeliberate(server.url, { question: "Q?", mode: "debate", modeConfig: { models: THREE } }));
      const single = await postDeliberate(server.url, { question: "Then?", mode: "debate", conversationId: revised[0].data.thread_id });
      expect(single.status).toBe(400);
      expect((await single.json()).error.code).toBe("follow_up_unsupported");

      const unknown = await postDeliberate(server.url, { question: "Q?", mode: "vote", conversationId: "no-such-conversation" });
      expect(unknown.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
