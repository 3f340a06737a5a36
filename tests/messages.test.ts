import { describe, expect, it } from "vitest";
import {
  biasWords,
  CATALOGUES,
  councilNote,
  errorWords,
  estimateWords,
  formatCount,
  leaderboardSummary,
  labelName,
  pickLang,
  seconds,
  translate,
  usageBrief,
  usageWords,
  type MessageKey,
} from "../state/messages/index.js";
import { ERROR_CODES, REASON_KEYS } from "../state/errors.js";

/** The values a text takes: its `{name}` placeholders and the numbers of its `{name:one|other}` plurals. */
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)(?::[^|{}]*\|[^{}]*)?\}/g)].map((m) => m[1]))].sort();

describe("the message catalogues", () => {
  it("have the same keys in English and Swedish, each with the same placeholders and a text", () => {
    const { en, sv } = CATALOGUES;
    expect(Object.keys(sv).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(sv[key]), key).toEqual(placeholders(en[key]));
      expect(sv[key].trim(), key).not.toBe("");
    }
  });

  it("have words for every error code a run's events can carry", () => {
    // The codes of errors raised inside runs (the graph, the run service, replays); the rest are HTTP refusals.
    const inEvents = [
      "missing_topic",
      "empty_message",
      "unknown_option",
      "invalid_participants",
      "unknown_model",
      "too_few_answers",
      "all_models_failed",
      "all_votes_invalid",
      "chairman_failed",
      "mode_mismatch",
      "follow_up_unsupported",
      "all_debaters_failed",
      "all_judges_failed",
      "model_error",
      "timeout",
      "config_error",
      "prompt_error",
      "shutting_down",
      "write_failed",
      "replay_incomplete",
      "cancelled",
      "internal_error",
    ];
    for (const code of inEvents) expect(ERROR_CODES, code).toContain(code);
    const usage = new Set(["missing_topic", "empty_message"]);
    for (const code of inEvents.filter((c) => !usage.has(c))) expect(Object.keys(CATALOGUES.en), code).toContain(`error.${code}`);
  });

  it("have words for every error code, and for every refusal's reason", () => {
    for (const code of ERROR_CODES) expect(Object.keys(CATALOGUES.en), code).toContain(`error.${code}`);
    for (const key of REASON_KEYS) expect(Object.keys(CATALOGUES.en), key).toContain(`reason.${key}`);
    const sv = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate("sv", key, values);
    // A reason is worded from its values; without one, the server's (English) message is the detail.
    expect(
      errorWords(sv, "invalid_participants", "a debate needs 2–8 participants, 1 requested", { key: "participantCount", values: { min: 2, max: 8, count: 1 } }),
    ).toBe("De här deltagarna kan inte vara med: en debatt behöver 2–8 deltagare, 1 valda");
    expect(errorWords(sv, "model_error", "provider 500")).toBe("En modell misslyckades: provider 500");
    expect(errorWords(sv, "conversation_not_found", 'conversation "x" not found')).toBe("Samtalet finns inte (det kan ha raderats).");
    expect(errorWords(sv, "no_such_code", "x")).toBeUndefined();
  });

  it("word /council's note on its second round", () => {
    const sv = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate("sv", key, values);
    const verdicts = [{ source: "round2" }, { source: "round1" }, { source: "round1" }];
    expect(councilNote(sv, { note: "2 judge(s) did not finish round 2; …", round2: "partial", verdicts })).toBe(
      "2 domare blev inte klara med runda 2; deras utlåtanden från runda 1 används.",
    );
    expect(councilNote(sv, { note: "Every judge failed round 2 …", round2: "failed", verdicts })).toMatch(/^Alla domare misslyckades/);
    expect(councilNote(sv, { note: "Round 2 was skipped …", round2: "skipped", verdicts })).toMatch(/^Runda 2 hoppades över/);
    expect(councilNote(sv, { round2: "complete", verdicts })).toBeUndefined();
  });

  it("fill placeholders and pick the reader's language", () => {
    expect(translate("en", "voice.speaking", { speaker: "Grok" })).toBe("Speaking: Grok");
    expect(translate("sv", "voice.speaking", { speaker: "Grok" })).toBe("Talar: Grok");
    // Numbers the language's way: a decimal comma in Swedish.
    expect(translate("sv", "card.stats", { words: 1234, seconds: seconds(2345) })).toBe("1234 ord · 2,3 s");
    expect(translate("en", "card.stats", { words: 1234, seconds: seconds(2345) })).toBe("1234 words · 2.3 s");
    // The word for a count, by the language's plural rules.
    expect(translate("en", "council.findings", { n: 1 })).toBe("1 finding");
    expect(translate("en", "council.findings", { n: 0 })).toBe("0 findings");
    expect(translate("en", "card.stats", { words: 1, seconds: 1 })).toBe("1 word · 1 s");
    expect(translate("sv", "dv.validVotes", { n: 1 })).toBe("1 giltig röst");
    expect(translate("sv", "dv.validVotes", { n: 3 })).toBe("3 giltiga röster");
    expect(pickLang(["sv-SE", "en-US"])).toBe("sv");
    expect(pickLang(["de-DE", "en-GB"])).toBe("en");
    expect(pickLang(["sv_SE.UTF-8"])).toBe("sv");
    expect(pickLang(["fr", undefined, "C.UTF-8"])).toBe("en");
  });
});

describe("words from data", () => {
  it("names an anonymised answer's label in the reader's language, and leaves any other text as it is", () => {
    const en = (key: MessageKey, values?: Record<string, string | number>) => translate("en", key, values);
    const sv = (key: MessageKey, values?: Record<string, string | number>) => translate("sv", key, values);
    expect(labelName(en, "Response B")).toBe("Response B");
    expect(labelName(sv, "Response B")).toBe("Svar B");
    expect(labelName(sv, "Response of the day")).toBe("Response of the day");
  });

  it("writes what a run cost: the known cost, a partial one, an unknown one, a simulated one, and the budget", () => {
    const en = (key: MessageKey, values?: Record<string, string | number>) => translate("en", key, values);
    const sv = (key: MessageKey, values?: Record<string, string | number>) => translate("sv", key, values);
    const u = { calls: 3, input_tokens: 1200, output_tokens: 300, cached_tokens: 0, reasoning_tokens: 0, cost_usd: 0.0123, unpriced_calls: 0 };
    expect(usageWords(en, u, { simulated: false })).toBe("3 model calls · 1200 tokens in, 300 out · $0.0123");
    expect(usageWords(sv, { ...u, cached_tokens: 400 }, { simulated: false, budgetUsd: 0.5 })).toBe(
      "3 modellanrop · 1200 token in (400 från cache), 300 ut · 0,0123\u00a0$ av en budget på 0,50\u00a0$",
    );
    expect(usageWords(en, { ...u, unpriced_calls: 1 }, { simulated: false })).toBe("3 model calls · 1200 tokens in, 300 out · $0.0123 + 1 unpriced call");
    expect(usageWords(en, { ...u, cost_usd: 0, unpriced_calls: 3 }, { simulated: false })).toMatch(/cost unknown/);
    expect(usageWords(en, { ...u, calls: 1, cost_usd: 0, unpriced_calls: 1 }, { simulated: true })).toBe(
      "1 model call · 1200 tokens in, 300 out · simulated, no cost",
    );
    expect(usageWords(en, { ...u, reasoning_tokens: 120 }, { simulated: false })).toBe(
      "3 model calls · 1200 tokens in, 300 out (120 of them reasoning) · $0.0123",
    );
    expect(usageWords(sv, { ...u, reasoning_tokens: 120 }, { simulated: false })).toBe(
      "3 modellanrop · 1200 token in, 300 ut (varav 120 resonemang) · 0,0123\u00a0$",
    );
    expect(usageBrief(en, u, false)).toBe("$0.0123");
    expect(usageBrief(en, { ...u, unpriced_calls: 3 }, false)).toBe("1500 tokens");
  });
});

describe("counts as the reader's language groups them", () => {
  const en = (key: MessageKey, values?: Record<string, string | number>) => translate("en", key, values);
  const sv = (key: MessageKey, values?: Record<string, string | number>) => translate("sv", key, values);

  it("groups thousands the English and the Swedish way, and keeps the plural right", () => {
    expect(formatCount("en", 92813)).toBe("92,813");
    expect(formatCount("sv", 92813)).toBe("92\u00a0813");
    expect(formatCount("en", 1234567)).toBe("1,234,567");
    expect(formatCount("sv", 999)).toBe("999");
    expect(en("usage.tokens", { n: formatCount("en", 92813) })).toBe("92,813 tokens");
    expect(en("usage.tokens", { n: formatCount("en", 1) })).toBe("1 token");
    expect(en("leaderboard.summary", { ballots: formatCount("en", 1000), runs: formatCount("en", 1), format: "vote", since: "x" })).toBe(
      "1,000 votes in 1 run · vote · x",
    );
  });

  it("writes the page's usage lines with grouped counts when given the language, as before without it", () => {
    const u = { calls: 3, input_tokens: 92813, output_tokens: 4200, cached_tokens: 1500, reasoning_tokens: 0, cost_usd: 0, unpriced_calls: 3 };
    expect(usageWords(en, u, { simulated: true }, "en")).toBe("3 model calls · 92,813 tokens in (1,500 cached), 4,200 out · simulated, no cost");
    expect(usageWords(sv, u, { simulated: true }, "sv")).toBe(
      "3 modellanrop · 92\u00a0813 token in (1\u00a0500 från cache), 4\u00a0200 ut · simulerat, ingen kostnad",
    );
    expect(usageBrief(en, u, true, "en")).toBe("97,013 tokens");
    expect(usageBrief(en, u, true)).toBe("97013 tokens");
    expect(estimateWords(en, u, true, "en")).toContain("97,013 tokens");
    expect(leaderboardSummary(en, { runs: 1200, ballots: 15000, filters: { format: null, since: null } }, "en")).toBe(
      "15,000 votes in 1,200 runs · all formats · all time",
    );
  });
});

describe("a leaderboard bias in words", () => {
  const en = (key: MessageKey, values?: Record<string, string | number>) => translate("en", key, values);
  const sv = (key: MessageKey, values?: Record<string, string | number>) => translate("sv", key, values);
  const finding = (f: Partial<Parameters<typeof biasWords>[2]>) => ({
    id: "first_position",
    ballots: 97,
    observed: 15,
    expected: 15,
    p_value: 1,
    significant: false,
    ...f,
  });

  it("says which way a significant count goes, and by how much", () => {
    expect(biasWords(en, "en", finding({ id: "own_vendor_anonymous", ballots: 34, observed: 0, expected: 4.2, p_value: 0.009, significant: true }))).toBe(
      "An answer of the voter's own vendor, anonymously: chosen in 0 of 34 votes, where chance gives 4.2 — voters avoid it: 4.2 fewer than chance gives (significant, p = 0.009)",
    );
    expect(biasWords(en, "en", finding({ observed: 40, expected: 24.25, p_value: 0.0004, significant: true }))).toBe(
      "The answer read first: chosen in 40 of 97 votes, where chance gives 24.3 — voters favour it: 15.8 more than chance gives (significant, p < 0.001)",
    );
    expect(biasWords(sv, "sv", finding({ id: "own_vendor_named", ballots: 34, observed: 0, expected: 4.2, p_value: 0.009, significant: true }))).toBe(
      "Ett svar från den röstandes egen leverantör, med namnen kända: valt i 0 av 34 röster, där slumpen ger 4,2 — röstarna undviker det: 4,2 färre än slumpen ger (signifikant, p = 0,009)",
    );
  });

  it("says that a count within chance shows no sign either way", () => {
    expect(biasWords(en, "en", finding({ observed: 18, p_value: 0.41 }))).toBe(
      "The answer read first: chosen in 18 of 97 votes, where chance gives 15.0 — no sign that voters favour or avoid it: the difference from chance is not significant (p = 0.410)",
    );
    expect(biasWords(en, "en", finding({ ballots: 4, observed: 1, expected: 1, p_value: null }))).toBe(
      "The answer read first: chosen in 1 of 4 votes, where chance gives 1.0 — too few votes to tell",
    );
  });

  it("gives the length test's direction by the correlation's sign, whatever the count of longest answers", () => {
    const length = finding({ id: "length", observed: 15, expected: 15, p_value: 0.004, significant: true, correlation: -0.1 });
    expect(biasWords(en, "en", length)).toBe(
      "The longest answer: chosen in 15 of 97 votes, where chance gives 15.0, correlation of being chosen with length -0.10 — voters favour shorter answers (significant, p = 0.004)",
    );
    expect(biasWords(sv, "sv", { ...length, correlation: 0.31 })).toBe(
      "Det längsta svaret: valt i 15 av 97 röster, där slumpen ger 15,0, korrelation mellan att väljas och längden 0,31 — röstarna föredrar längre svar (signifikant, p = 0,004)",
    );
    expect(biasWords(en, "en", { ...length, p_value: 0.3, significant: false })).toMatch(
      /— no sign that voters favour longer or shorter answers: the correlation is not significant \(p = 0\.300\)$/,
    );
  });

  it("never says significant without saying which way", () => {
    for (const lang of ["en", "sv"] as const) {
      const t = lang === "en" ? en : sv;
      for (const f of [
        finding({ observed: 30, p_value: 0.01, significant: true }),
        finding({ observed: 3, p_value: 0.01, significant: true }),
        finding({ id: "length", p_value: 0.01, significant: true, correlation: 0.2 }),
        finding({ id: "length", p_value: 0.01, significant: true, correlation: -0.2 }),
      ]) {
        const words = biasWords(t, lang, f);
        expect(words, words).toMatch(lang === "en" ? /voters (favour|avoid)/ : /röstarna (föredrar|undviker)/);
        expect(words).not.toMatch(/\b(not|inte) significant|inte signifikant/);
      }
    }
  });
});
