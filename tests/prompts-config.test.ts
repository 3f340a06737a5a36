import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_PROMPTS, PROMPTS } from "../prompts/registry.js";
import { FORMAT_IDS } from "../state/formats.js";
import { placeholdersIn, PromptError, PromptSet, renderTemplate, validatePromptText } from "../prompts/render.js";
import { InMemoryPromptStore, loadPromptSet, setOverride, type PromptStore } from "../prompts/store.js";
import { loadSettings } from "../state/config.js";
import { answerTokens, resolveRunSettings, runSettingsResolver } from "../state/run-config.js";
import { ConfigError } from "../state/errors.js";
import { named, runEvents, testDeps } from "./support/harness.js";

/** The prompts the deliberation formats share, and the OpenAI-compatible API's. */
const SHARED_KEYS = ["deliberation.answer.system", "deliberation.continue.system", "deliberation.title", "run.material", "openai.json_result"];

describe("the prompt registry", () => {
  it("registers the seed's 16 keys first, then those of the other formats, then the shared ones, each default valid and asking for the topic's language", () => {
    const keys = PROMPTS.map((p) => p.key);
    // The seed's 16 (/debatt's) first, then each other format's in the formats' order, then the shared ones.
    expect(keys.slice(0, 16)).toEqual([
      "debate.supervisor.instructions",
      "debate.domain_planner.system",
      "debate.mini_planner.system",
      "debate.mini_critic.system",
      "debate.convergence.system",
      "debate.analysis.system",
      "debate.research.system",
      "debate.oneseek.system",
      "debate.round.1.introduction",
      "debate.round.2.argument",
      "debate.round.3.deepening",
      "debate.round.4.voting",
      "debate.oneseek.round.1",
      "debate.oneseek.round.2",
      "debate.oneseek.round.3",
      "debate.oneseek.round.4",
    ]);
    expect(keys).toEqual([...FORMAT_IDS.flatMap((id) => FORMAT_PROMPTS[id].map((p) => p.key)), ...SHARED_KEYS]);
    expect(keys).toEqual(
      expect.arrayContaining([
        "compare.answer.system",
        "vote.ballot",
        "vote.tiebreaker",
        "revise.revision",
        "revise.restate",
        "revise.revision.anti_anchoring",
        "revise.ballot",
        "deep.debater",
        "deep.moderator",
        "deep.synthesis",
        "council.judge.system",
        "council.packet",
        "council.round2.disagreed",
        "council.round2.agreed",
        "council.report",
        "rank.ranking",
        "rank.chairman",
      ]),
    );
    for (const p of PROMPTS) {
      expect(validatePromptText(p.key, p.default), p.key).toEqual([]);
      expect(placeholdersIn(p.default).sort(), p.key).toEqual(
        p.placeholders
          .map((x) => x.name)
          .filter((n) => p.default.includes(`{${n}}`))
          .sort(),
      );
      // Prompts whose answer people read ask for the question's language (a vote's is `VOTE: Response X`;
      // a revision reworks the model's own answer, already in that language).
      // /deep's debaters and moderator answer in JSON.
      // A council judge's round 2 continues its round-1 conversation, whose system prompt sets the language.
      const continues = p.key.startsWith("revise.") || ["council.packet", "council.round2.disagreed", "council.round2.agreed"].includes(p.key);
      // The JSON result keeps the answer's own language; the material is read inside another prompt, which sets it.
      if (
        !["debate.research.system", "vote.ballot", "vote.tiebreaker", "deep.debater", "deep.moderator", "openai.json_result", "run.material"].includes(p.key) &&
        !continues
      )
        expect(p.default, p.key).toMatch(/samma språk|language of the (question|text you judge|claim)/);
    }
  });

  it("renders placeholders and fails loudly on a missing one, leaving JSON braces alone", () => {
    expect(renderTemplate("k", 'Hi {name}, {"a": 1}', { name: "Ada" })).toBe('Hi Ada, {"a": 1}');
    expect(() => renderTemplate("debate.round.1.introduction", "{context} {topic}", { context: "c" })).toThrow(
      'prompt "debate.round.1.introduction" uses {topic} but no value was given for it',
    );
  });

  it("names every problem of a bad override", () => {
    expect(validatePromptText("nope", "x")).toEqual(['unknown prompt key "nope"']);
    expect(validatePromptText("debate.round.4.voting", "   ")).toEqual(['prompt "debate.round.4.voting": text is empty']);
    expect(validatePromptText("debate.round.4.voting", "Vote {context} {colour}")).toEqual([
      'prompt "debate.round.4.voting": required placeholder {candidates} is missing',
      'prompt "debate.round.4.voting": unknown placeholder {colour}; allowed: {context}, {candidates}, {participant}, {topic}',
    ]);
    expect(validatePromptText("debate.mini_critic.system", "x".repeat(20_001))[0]).toContain("at most 20000");
  });

  it("resolves a run override before a stored override before the default", async () => {
    const store = new InMemoryPromptStore();
    await setOverride(store, "debate.mini_critic.system", "stored {topic}");
    await setOverride(store, "debate.supervisor.instructions", "stored supervisor");
    const set = await loadPromptSet(store, { "debate.mini_critic.system": "run {topic}" });
    expect(set.text("debate.mini_critic.system")).toBe("run {topic}");
    expect(set.text("debate.supervisor.instructions")).toBe("stored supervisor");
    expect(set.text("debate.research.system")).toBe(PROMPTS.find((p) => p.key === "debate.research.system")!.default);
    await expect(setOverride(store, "debate.round.1.introduction", "no context")).rejects.toThrow(PromptError);
  });

  it("keeps the defaults when the store fails, and says so", async () => {
    const errors: string[] = [];
    const broken: PromptStore = {
      all: async () => {
        throw new Error("connection refused");
      },
      set: async () => {},
      delete: async () => {},
      health: () => ({ backend: "memory", ok: false, state: "down" }),
      close: async () => {},
    };
    const set: PromptSet = await loadPromptSet(broken, {}, (e) => errors.push(e.message));
    expect(set.text("debate.mini_critic.system")).toContain("Du granskar");
    expect(errors).toEqual(["connection refused"]);
  });

  it("sends overridden prompts to the models of the next debate", async () => {
    const store = new InMemoryPromptStore();
    await setOverride(store, "debate.round.2.argument", "STORED ROUND TWO {context}");
    const { deps, models } = testDeps({ prompts: store });
    await runEvents(deps, "/debatt X", {
      participants: ["call_grok", "call_claude"],
      configurable: { prompt_overrides: { "debate.domain_planner.system": "You are {participant}. RUN OVERRIDE" } },
    });
    const grok = models.callsOf("turn", "call_grok");
    // Round 2's prompt is the last message of Grok's conversation; the topic opened its first.
    expect(String(grok[1].messages.at(-1)!.content)).toMatch(/^STORED ROUND TWO --- Runda [12] ---/);
    expect(String(grok[1].messages[1].content)).toMatch(/^Debattämne: X/);
    expect(String(grok[0].messages[0].content)).toBe("You are Grok. RUN OVERRIDE");
  });

  it("rejects an invalid run override with an error event naming it", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/debatt X", { configurable: { prompt_overrides: { "debate.round.1.introduction": "no placeholder" } } });
    expect(named(events, "error")[0].message).toContain("required placeholder {context} is missing");
    expect(models.calls).toHaveLength(0);
  });
});

describe("settings", () => {
  it("defaults to the seed's 8 participants and timeouts", () => {
    const s = loadSettings({});
    expect(s.roster.map((p) => p.key)).toEqual([
      "call_grok",
      "call_claude",
      "call_gpt",
      "call_gemini",
      "call_deepseek",
      "call_perplexity",
      "call_qwen",
      "call_oneseek",
    ]);
    expect(s).toMatchObject({ responseTimeoutMs: 90_000, voteTimeoutMs: 60_000 });
    expect(loadSettings({ ONESEEK_MODEL: "local/one" }).roster.at(-1)).toMatchObject({ model: "local/one", oneseek: true });
  });

  it("reads DEBATE_PARTICIPANTS inline or from a file", () => {
    const roster = [
      { key: "call_a", display: "A", model: "m/a" },
      { key: "call_b", display: "B", model: "m/b", oneseek: true },
    ];
    expect(loadSettings({ DEBATE_PARTICIPANTS: JSON.stringify(roster) }).roster).toEqual(roster);
    const file = join(mkdtempSync(join(tmpdir(), "debatt-")), "p.json");
    writeFileSync(file, JSON.stringify(roster));
    expect(loadSettings({ DEBATE_PARTICIPANTS: file }).roster).toEqual(roster);
  });

  it.each([
    [{ DEBATE_PARTICIPANTS: "[{" }, "DEBATE_PARTICIPANTS is not valid JSON"],
    [{ DEBATE_PARTICIPANTS: '[{"key":"call_a","display":"A","model":"m"}]' }, "at least 2 participants"],
    [{ DEBATE_PARTICIPANTS: '[{"key":"a","display":"A","model":"m"},{"key":"a","display":"B","model":"m"}]' }, 'duplicate participant "a"'],
    [{ DEBATE_PARTICIPANTS: "/nonexistent/p.json" }, 'cannot read file "/nonexistent/p.json"'],
    [{ DEBATE_RESPONSE_TIMEOUT_MS: "soon" }, "DEBATE_RESPONSE_TIMEOUT_MS must be a number"],
    [{ OPENAI_BASE_URL: "not a url" }, "OPENAI_BASE_URL must be a URL"],
  ])("names the problem in %j", (env, message) => {
    expect(() => loadSettings(env)).toThrow(ConfigError);
    expect(() => loadSettings(env)).toThrow(message);
  });

  it("resolves a run's configuration against the settings", () => {
    const s = loadSettings({ DEBATE_VOTE_TIMEOUT_MS: "1000" });
    expect(resolveRunSettings({ thread_id: "t", seed: 5 }, s)).toMatchObject({
      seed: 5,
      contextChars: 600,
      voteTimeoutMs: 1000,
      voteRoundTimeoutMs: 6000,
      responseTokensAsked: undefined,
    });
    expect(() => resolveRunSettings({ context_chars: "many" }, s)).toThrow(/context_chars/);
  });

  it("gives an answer the run's token budget, else its format's (/rank's first answers are long, as llm-council leaves them), else 800", () => {
    const s = loadSettings({});
    const unset = resolveRunSettings({ thread_id: "t" }, s);
    expect(answerTokens(unset, "vote")).toBe(800);
    expect(answerTokens(unset, "chat")).toBe(800);
    expect(answerTokens(unset, "rank")).toBe(4000);
    expect(answerTokens(resolveRunSettings({ thread_id: "t", max_response_tokens: 300 }, s), "rank")).toBe(300);
    expect(() => resolveRunSettings({ max_response_tokens: 9000 }, s)).toThrow(/max_response_tokens/);
  });

  it("resolves a run's configuration once for all its nodes, and anything else anew", () => {
    const resolve = runSettingsResolver(loadSettings({}));
    const modeConfig = { vote: { timeoutMs: 5000 } };
    // LangGraph hands each node a copy of the configurable: the same values give the same result.
    const first = resolve({ thread_id: "t", seed: 5, mode_config: modeConfig, __pregel_task_id: "a" });
    expect(resolve({ thread_id: "t", seed: 5, mode_config: modeConfig, __pregel_task_id: "b" })).toBe(first);
    // Another value, another object, or a value only its type tells apart: resolved (or refused) anew.
    expect(resolve({ thread_id: "t", seed: 6, mode_config: modeConfig }).seed).toBe(6);
    expect(resolve({ thread_id: "t", seed: 5, mode_config: { ...modeConfig } })).not.toBe(first);
    expect(resolve({ thread_id: "t", seed: 5 })).toMatchObject({ seed: 5 });
    expect(() => resolve({ thread_id: "t", seed: "5" })).toThrow(/seed/);
    expect(() => resolve({ thread_id: "t", seed: null })).toThrow(/seed/);
    expect(resolve({ thread_id: "t" }).seed).toBeUndefined();
    expect(() => resolve({ thread_id: "t", seed: null })).toThrow(/seed/);
    // Not an object: refused, whatever was resolved before.
    expect(() => resolve("x")).toThrow(ConfigError);
    expect(() => resolve([1])).toThrow(ConfigError);
  });

  it("keeps the runs asked for last: a thousand live runs each find their own result", () => {
    const resolve = runSettingsResolver(loadSettings({}));
    const runs = Array.from({ length: 1000 }, (_, i) => ({ thread_id: `t${i}`, mode_config: {} }));
    const first = runs.map((r) => resolve({ ...r }));
    for (let round = 0; round < 3; round++) runs.forEach((r, i) => expect(resolve({ ...r })).toBe(first[i]));
  });
});
