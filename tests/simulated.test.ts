import { SIMULATED_ANSWERS, simulatedModels } from "../service/formats.js";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { ModelPhase, ModelRequest } from "../ports/models.js";
import { COUNCIL_JUDGE_SYSTEM, COUNCIL_PACKET, COUNCIL_PERSPECTIVES, COUNCIL_REPORT, COUNCIL_ROUND2_DISAGREED } from "../prompts/council.js";
import { DEFAULT_DEBATE_ANALYSIS_PROMPT } from "../prompts/debatt.js";
import { DEEP_DEBATER, DEEP_MODERATOR, DEEP_SYNTHESIS } from "../prompts/deep.js";
import { renderTemplate } from "../prompts/render.js";
import { REVISE_BALLOT, REVISE_RESTATE, REVISE_REVISION, REVISE_REVISION_ANTI_ANCHORING } from "../prompts/revise.js";
import { DELIBERATION_TITLE, VOTE_BALLOT } from "../prompts/vote.js";
import { keywordsOf, simulatedAnswer, termsOf } from "../providers/simulated.js";
import { WHOLE_TITLE_WORDS } from "../providers/simulated/question.js";
import type { CouncilResult, Verdict } from "../state/council.js";
import type { Lang } from "../state/language.js";
import { detectLanguage } from "../state/language.js";
import { defaultRoster, type Participant } from "../state/participants.js";
import { parseArgument } from "../state/replies/argument.js";
import { parseAssessment } from "../state/replies/assessment.js";
import { parseConvergence } from "../state/replies/convergence.js";
import { parseLetterVote } from "../state/replies/letter-vote.js";
import { parseRevision, resolveRevision } from "../state/replies/revision.js";
import { cleanTitle } from "../state/replies/title.js";
import { parseVerdict } from "../state/replies/verdict.js";
import { countWords } from "../state/text.js";
import { loadSettings } from "../state/config.js";

/**
 * The offline provider's promise: simulated answers are about the question (they use its words),
 * in its language, free of the old policy filler, without a sentence said twice, and in the shape
 * the phase's parser reads.
 */

const roster = defaultRoster();
const who = (display: string): Participant => ({ ...roster[0], display });
const JUDGES = ["Grok", "Claude", "ChatGPT"];

/** The old filler, wrong for any question that is not about regulation or policy. */
const FILLER = {
  en: /regulat|checkpoints|proportionality|daily lives|how fast to act|counter-arguments fairly|how rules are/i,
  sv: /reglering|\bregler\b|avstämningspunkter|proportionalitet|vardagen|hur snabbt man|motargumenten sakligt|hur reglerna/i,
};

const EXAMPLES = {
  council: { en: "The Great Wall of China is visible from space with the naked eye.", sv: "Blixten slår aldrig ner på samma ställe två gånger." },
  question: { en: "Which programming language is best for beginners?", sv: "Vilket programmeringsspråk passar nybörjare bäst?" },
  yesNo: { en: "Should cities ban cars from their centres?", sv: "Bör skolor förbjuda mobiltelefoner?" },
} as const;

const ask = (
  request: Partial<ModelRequest> & { phase: ModelPhase; topic: string },
  messages: BaseMessage[] = [new HumanMessage(request.topic)],
  answerWords?: number,
) => simulatedAnswer({ participant: roster[0], ...request }, messages, { answerWords }, SIMULATED_ANSWERS);

/** Every string inside a JSON value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The sentences of a text (markdown marks and list bullets removed; fragments under five words left out). */
function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.replace(/^[\s#*•-]+|\*\*/g, "").trim())
    .filter((s) => s.split(/\s+/).length >= 5);
}

/** Checks what every simulated text must be: about the topic, in its language, no filler, no sentence twice. */
function expectAbout(texts: string | string[], topic: string, lang: Lang, minKeywords = 1, { part = false } = {}) {
  const all = [texts].flat();
  const joined = all.join("\n");
  const keywords = keywordsOf(topic);
  // A whole reply names the question's main word; a part of one (a finding) names at least one of its words.
  if (!part) expect(joined).toContain(keywords[0]);
  expect(keywords.filter((k) => joined.includes(k)).length).toBeGreaterThanOrEqual(Math.min(minKeywords, keywords.length));
  expect(detectLanguage(joined)).toBe(lang);
  expect(joined).not.toMatch(FILLER[lang]);
  const sentences = all.flatMap(sentencesOf);
  const repeated = sentences.filter((s, i) => sentences.indexOf(s) !== i);
  expect(repeated).toEqual([]);
}

const LANGS = ["en", "sv"] as const;

describe("the simulated /council", () => {
  /** Round 1's conversation of the i-th judge, as council-judge builds it (default prompts). */
  const roundOne = (i: number, claim: string): BaseMessage[] => {
    const p = COUNCIL_PERSPECTIVES[i];
    const judge = `judge-${i + 1} (${p.name})`;
    return [
      new SystemMessage(renderTemplate("system", COUNCIL_JUDGE_SYSTEM, { judge, perspective: p.name, perspective_focus: p.focus, date: "2025-01-01" })),
      new HumanMessage(renderTemplate("packet", COUNCIL_PACKET, { claim })),
    ];
  };
  const judge = (i: number, claim: string, round: 1 | 2, ownReply = "") =>
    ask(
      { phase: "judge", participant: who(JUDGES[i]), round, topic: claim },
      round === 1
        ? roundOne(i, claim)
        : [...roundOne(i, claim), new AIMessage(ownReply), new HumanMessage(renderTemplate("r2", COUNCIL_ROUND2_DISAGREED, { other_verdicts: "…" }))],
    );

  it.each(LANGS)("judges judge the claim, from their own perspective, in the claim's language (%s)", (lang) => {
    const claim = EXAMPLES.council[lang];
    const replies = JUDGES.map((_, i) => judge(i, claim, 1));
    replies.forEach((text, i) => {
      const parsed = parseVerdict(text, `judge-${i + 1}`);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const { key_insight, findings, recommendation } = parsed.verdict;
      expectAbout(text, claim, lang);
      for (const part of [key_insight, recommendation, ...findings.map((f) => f.description)]) expectAbout(part, claim, lang, 1, { part: true });
      expect(findings.length).toBeGreaterThan(0);
    });
    // The perspective shows: correctness, risk and completeness judges say different things.
    expect(new Set(replies.map((r) => r.split("\n")[0])).size).toBe(3);
    expect(judge(0, claim, 1)).toBe(replies[0]);
  });

  it("gives a passing verdict a key insight that says what holds, and a failing one a criticism", () => {
    const claims = [
      "Coffee is bad for your health.",
      "Rust is always faster than Go.",
      "The Great Wall of China is visible from space.",
      "Tabs are better than spaces.",
      "Remote work makes teams slower.",
    ];
    const verdicts = claims
      .flatMap((claim) => JUDGES.map((_, i) => parseVerdict(judge(i, claim, 1), `judge-${i + 1}`)))
      .flatMap((p) => (p.ok ? [p.verdict] : []));
    const passes = verdicts.filter((v) => v.verdict === "PASS");
    expect(passes.length).toBeGreaterThan(0);
    for (const v of passes) expect(v.key_insight).toMatch(/holds|passes this check/);
    for (const v of verdicts.filter((v) => v.verdict === "FAIL")) expect(v.key_insight).not.toMatch(/holds:|passes this check/);
  });

  it.each(LANGS)("round 2 (--debate) restates round 1 and judges the claim again, without repeating itself (%s)", (lang) => {
    const claim = EXAMPLES.council[lang];
    const first = judge(1, claim, 1);
    const second = judge(1, claim, 2, first);
    expect(second).not.toBe(first);
    const parsed = parseVerdict(second, "judge-2");
    expect(parsed.ok && parsed.restatement).toBeTruthy();
    expectAbout(second, claim, lang);
    if (parsed.ok) expect(parsed.verdict.verdict).toBe((parseVerdict(first, "judge-2") as { verdict: Verdict }).verdict.verdict);
  });

  /** The council's report on a claim, from its judges' round-1 verdicts, consolidated as council_consolidate does. */
  const reportOn = (claim: string) => {
    const verdicts = JUDGES.map((name, i) => {
      const parsed = parseVerdict(judge(i, claim, 1), `judge-${i + 1} (${COUNCIL_PERSPECTIVES[i].name})`);
      if (!parsed.ok) throw new Error(parsed.reason);
      return { ...parsed.verdict, modelKey: name.toLowerCase(), display: name, perspective: COUNCIL_PERSPECTIVES[i].name, source: "round1" as const };
    });
    const counts = { PASS: 0, WARN: 0, FAIL: 0 };
    for (const v of verdicts) counts[v.verdict]++;
    const consensus = (["FAIL", "WARN", "PASS"] as const).reduce((a, b) => (counts[b] > counts[a] ? b : a));
    const result: CouncilResult = { verdicts, counts, consensus, unanimous: counts[consensus] === verdicts.length, round2: "skipped" };
    const prompt = renderTemplate("report", COUNCIL_REPORT, { claim, consolidation: JSON.stringify(result, null, 2) });
    return { verdicts, consensus, report: ask({ phase: "council_report", participant: undefined, topic: claim }, [new HumanMessage(prompt)]) };
  };

  it.each(LANGS)("the report is about the claim: its verdict, the judges' findings and a recommendation (%s)", (lang) => {
    const claim = EXAMPLES.council[lang];
    const { verdicts, consensus, report } = reportOn(claim);
    expectAbout(report, claim, lang, 2);
    expect(report).toContain(`**${consensus}**`);
    expect(report).toMatch(/^## /m);
    // The report carries the judges' own findings.
    expect(report).toContain(verdicts[0].findings[0].description);
  });

  it.each(LANGS)("the report is in the claim's language throughout and names the judges as the verdict table does (%s)", (lang) => {
    const claims = {
      en: [EXAMPLES.council.en, "Nuclear power is the safest energy source."],
      sv: [EXAMPLES.council.sv, "Kärnkraft är den säkraste energikällan"],
    }[lang];
    for (const claim of claims) {
      const { report } = reportOn(claim);
      // Not the council's internal names (`judge-1 (correctness)`), but Grok, Claude and ChatGPT.
      expect(report).not.toMatch(/judge-\d/);
      for (const name of JUDGES) expect(report).toContain(name);
      // Severity and perspective words in the claim's language: "betydande", not "significant".
      const severities = [...report.matchAll(/^- \*\*([^*]+)\*\* — /gm)].map((m) => m[1]);
      expect(severities.length).toBeGreaterThan(0);
      for (const severity of severities)
        expect({ en: ["critical", "significant", "minor"], sv: ["kritiskt", "betydande", "mindre"] }[lang]).toContain(severity);
      if (lang === "sv") expect(report).not.toMatch(/\b(critical|significant|minor|correctness|completeness|evidence|clarity)\b/);
    }
  });
});

describe("the simulated /deep", () => {
  it.each(LANGS)("debaters argue about the question with distinct key points, the moderator and the synthesis too (%s)", (lang) => {
    const question = EXAMPLES.question[lang];
    const names = ["Grok", "Claude", "ChatGPT", "Gemini"];
    const answers = names.map((n) => ask({ phase: "answer", participant: who(n), topic: question }));
    for (const round of [1, 2]) {
      const args = names.map((n, i) => {
        const others = names
          .map((_, j) => j)
          .filter((j) => j !== i)
          .map((j) => `### Debater ${"ABCD"[j]}\n${answers[j]}\n---\n`)
          .join("");
        const prompt = renderTemplate("debater", DEEP_DEBATER, { question, own_response: answers[i], other_responses: others, previous_round: "" });
        const text = ask({ phase: "debater", participant: who(n), round, topic: question }, [new HumanMessage(prompt)]);
        const parsed = parseArgument(text, answers[i]);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) throw new Error(parsed.reason);
        const { key_points, counterpoints } = parsed.argument;
        expect(key_points.length).toBeGreaterThanOrEqual(2);
        expect(new Set(key_points).size).toBe(key_points.length);
        expect(counterpoints[0].target).toMatch(/^Debater [ABCD]$/);
        expect(counterpoints[0].target).not.toBe(`Debater ${"ABCD"[i]}`);
        for (const point of key_points) expect(keywordsOf(question).some((k) => point.includes(k))).toBe(true);
        expectAbout(stringsOf(parsed.argument), question, lang);
        return parsed.argument;
      });
      // Varied across debaters.
      expect(new Set(args.map((a) => a.key_points.join("|"))).size).toBeGreaterThan(1);
      const prompt = renderTemplate("moderator", DEEP_MODERATOR, { question, round_number: round, max_rounds: 3, arguments: JSON.stringify(args) });
      const moderated = parseAssessment(ask({ phase: "moderator", participant: undefined, round, topic: question }, [new HumanMessage(prompt)]));
      expect(moderated.ok).toBe(true);
      if (moderated.ok) expectAbout(stringsOf(moderated.assessment), question, lang);
    }
    const output = {
      mode: "deep",
      rounds_completed: 2,
      final_stances: [],
      convergence_status: { agreement_score: 0.9, new_points_ratio: 0.2, consensus_answer: null, remaining_disagreements: [] },
      debate_log: [],
    };
    const synthesis = ask({ phase: "deep_synthesis", participant: undefined, topic: question }, [
      new HumanMessage(renderTemplate("synthesis", DEEP_SYNTHESIS, { question, debate_output: JSON.stringify(output) })),
    ]);
    expectAbout(synthesis, question, lang, 2);
    expect(synthesis).toMatch(/^## /m);
  });
});

describe("the simulated /debatt", () => {
  const turn = (topic: string, name: string, round: number, answerWords?: number) =>
    ask({ phase: "turn", participant: who(name), round, topic }, [new HumanMessage(`Debattämne: ${topic}\n[Claude]: …\n[Gemini]: …`)], answerWords);

  it.each(LANGS)("a whole turn is about the topic's words, open questions and yes/no questions alike (%s)", (lang) => {
    for (const topic of [EXAMPLES.question[lang], EXAMPLES.yesNo[lang]]) {
      for (const [name, round] of [
        ["Grok", 1],
        ["Grok", 2],
        ["ChatGPT", 3],
        ["Qwen", 1],
      ] as const) {
        const text = turn(topic, name, round);
        expectAbout(text, topic, lang, 2);
        // Every sentence after the opening names one of the topic's words or another participant.
        const body = sentencesOf(text)
          .slice(1)
          .filter((s) => !/^(My answer|Mitt svar):/.test(s));
        for (const s of body) expect(keywordsOf(topic).some((k) => s.includes(k)) || /Claude|Gemini/.test(s)).toBe(true);
      }
      expect(turn(topic, "Grok", 1)).toBe(turn(topic, "Grok", 1));
      expect(turn(topic, "Grok", 1)).not.toBe(turn(topic, "ChatGPT", 1));
    }
    expect(turn(EXAMPLES.question[lang], "Grok", 1)).not.toMatch(/in favour|against it|jag är (för|emot)/);
  });

  it("keeps the word budget without repeating a sentence", () => {
    for (const words of [60, 230]) {
      const text = turn("Is coffee healthy?", "Grok", 2, words);
      expect(text.split(/\s+/).length).toBeGreaterThanOrEqual(words);
      expectAbout(text, "Is coffee healthy?", "en");
    }
  });

  it("writes each round to SIMULATED_ROUND_WORDS when it is set, past the end of its sentences", () => {
    const lengths = [1, 2, 3].map((round) => {
      const text = simulatedAnswer(
        { phase: "turn", participant: roster[0], round, topic: "Is coffee healthy?" },
        [new HumanMessage("Debattämne: Is coffee healthy?")],
        { roundWords: [300, 500, 500] },
        SIMULATED_ANSWERS,
      );
      return countWords(text);
    });
    expect(lengths[0]).toBeGreaterThanOrEqual(300);
    expect(lengths[0]).toBeLessThan(340);
    for (const n of lengths.slice(1)) expect(n).toBeGreaterThanOrEqual(500);
    expect(() => loadSettings({ SIMULATED_ROUND_WORDS: "300,500" })).toThrow("SIMULATED_ROUND_WORDS must be three word counts, e.g. 300,500,500");
    expect(loadSettings({ SIMULATED_ROUND_WORDS: "60,90,120" }).simulatedRoundWords).toEqual([60, 90, 120]);
  });

  it.each(LANGS)("the convergence analysis and the synthesis are about the topic, with no sentence twice (%s)", (lang) => {
    const topic = EXAMPLES.yesNo[lang];
    const analysis = parseConvergence(ask({ phase: "convergence", participant: undefined, topic }));
    expect(analysis.ok).toBe(true);
    if (analysis.ok) {
      expectAbout(stringsOf(analysis.analysis), topic, lang);
      expect(analysis.analysis.merged_summary).not.toBe(analysis.analysis.comparative_summary);
    }
    const prompt = renderTemplate("analysis", DEFAULT_DEBATE_ANALYSIS_PROMPT, { topic, winner: "Claude", vote_counts: "Claude 3", summary: "…" });
    const synthesis = ask({ phase: "synthesis", participant: undefined, topic }, [new HumanMessage(prompt)]);
    expectAbout(synthesis, topic, lang, 2);
    expect(synthesis).toContain("Claude");
    expect(synthesis.match(/^## /gm)).toHaveLength(4);
  });
});

describe("the simulated /vote and /revise", () => {
  const labels = ["Response A", "Response B", "Response C"];
  const responses = labels.map((l) => `${l}:\n…`).join("\n\n");

  it.each(LANGS)("ballots give reasons about the answers, not debate turns, and end with a readable vote (%s)", (lang) => {
    const question = EXAMPLES.question[lang];
    for (const template of [VOTE_BALLOT, REVISE_BALLOT]) {
      for (const name of ["Grok", "Claude", "ChatGPT", "Gemini"]) {
        const text = ask({ phase: "ballot", participant: who(name), topic: question, candidates: labels }, [
          new HumanMessage(renderTemplate("ballot", template, { question, responses })),
        ]);
        expect(labels).toContain(parseLetterVote(text));
        const reason = text.split("\n\nVOTE:")[0];
        expect(reason).not.toMatch(/counter-argument|motargument|debat/i);
        expectAbout(reason, question, lang);
      }
    }
    const tiebreak = ask({ phase: "tiebreaker", topic: question, candidates: ["Response A", "Response C"] });
    expect(["Response A", "Response C"]).toContain(parseLetterVote(tiebreak));
    expect(tiebreak).not.toMatch(/counter-argument|motargument/i);
  });

  it("votes split as real voters' do: nobody votes for their own answer, some votes tie, and the same question votes the same way", () => {
    const voters = roster.slice(0, 7);
    const questions = [
      EXAMPLES.question.en,
      EXAMPLES.question.sv,
      ...[
        "Is coffee healthy?",
        "How do I design a database?",
        "Should cities ban cars from their centres?",
        "What is the best way to learn Rust?",
        "Will AI replace programmers?",
        "Is remote work better than office work?",
      ],
      ...[
        "Bör skolor förbjuda mobiltelefoner?",
        "Är kaffe nyttigt?",
        "Hur väljer jag en elbil?",
        "Vilken stad är bäst att bo i?",
        "Ska Sverige bygga ut kärnkraften?",
        "Är distansarbete bättre än kontorsarbete?",
      ],
    ];
    /** One /vote round: every voter's pick, by author, with the answers under labels in the given order. */
    const voteRound = (question: string, order: Participant[]) => {
      const labels = order.map((_, i) => `Response ${"ABCDEFG"[i]}`);
      const responses = order.map((p, i) => `--- ${labels[i]} ---\n${ask({ phase: "answer", participant: p, topic: question })}\n\n`).join("");
      const prompt = renderTemplate("ballot", VOTE_BALLOT, { question, responses });
      return voters.map((v) => {
        const label = parseLetterVote(ask({ phase: "ballot", participant: v, topic: question, candidates: labels }, [new HumanMessage(prompt)]));
        return order[labels.indexOf(label!)].display;
      });
    };
    let ties = 0;
    let clear = 0;
    for (const question of questions) {
      const picks = voteRound(question, voters);
      voters.forEach((v, i) => expect(picks[i], `${v.display} on "${question}"`).not.toBe(v.display));
      const counts = [...new Set(picks)].map((p) => picks.filter((x) => x === p).length).sort((a, b) => b - a);
      // Never every voter for one answer: its author votes for another.
      expect(counts[0]).toBeLessThan(voters.length);
      if (counts[0] === counts[1]) ties++;
      else clear++;
      // The same votes whatever the labels' order, and on every run.
      expect(voteRound(question, [...voters].reverse())).toEqual(picks);
    }
    expect(ties).toBeGreaterThan(0);
    expect(clear).toBeGreaterThan(ties);
  });

  it.each(LANGS)("a STAND keeps the original answer word for word; REVISE and MERGE are about the question (%s)", (lang) => {
    const question = EXAMPLES.question[lang];
    const names = ["Grok", "Claude", "ChatGPT", "Gemini", "DeepSeek", "Qwen", "Mistral", "Llama", "Perplexity", "OneSeek"];
    const decisions = new Set<string>();
    for (const name of names) {
      const p = who(name);
      const original = ask({ phase: "answer", participant: p, topic: question });
      const values = { question, own_response: original, other_responses: "Response B:\n…\n" };
      const plain = ask({ phase: "revision", participant: p, topic: question }, [new HumanMessage(renderTemplate("revision", REVISE_REVISION, values))]);
      const restate = renderTemplate("restate", REVISE_RESTATE, values);
      const restatement = ask({ phase: "restate", participant: p, topic: question }, [new HumanMessage(restate)]);
      expectAbout(restatement, question, lang);
      const anchored = ask({ phase: "revision", participant: p, topic: question }, [
        new HumanMessage(restate),
        new AIMessage(restatement),
        new HumanMessage(renderTemplate("anti", REVISE_REVISION_ANTI_ANCHORING, values)),
      ]);
      // An edited prompt that does not show the original: the simulated model still knows its answer.
      const edited = ask({ phase: "revision", participant: p, topic: question }, [new HumanMessage(`Reconsider your answer to: ${question}`)]);
      for (const text of [plain, anchored, edited]) {
        const parsed = parseRevision(text);
        expect(parsed.decision).not.toBeNull();
        decisions.add(parsed.decision!);
        expectAbout(parsed.reasoning ?? "", question, lang, 1, { part: true });
        expectAbout(text, question, lang);
        if (parsed.decision === "STAND") {
          expect(parsed.revisedResponse).toBe(original);
          expect(resolveRevision(text, original).revisedResponse).toBe(original);
        } else {
          expect(parsed.revisedResponse).not.toBe(original);
        }
      }
    }
    expect(decisions).toContain("STAND");
    expect(decisions.size).toBeGreaterThan(1);
  });

  it.each(LANGS)("a revision that says it added something keeps the original and comes out longer (%s)", (lang) => {
    const questions = {
      en: [EXAMPLES.question.en, "Should cities ban cars from their centres?", "How do I design a database?"],
      sv: [EXAMPLES.question.sv, "Bör skolor förbjuda mobiltelefoner?", "Hur väljer jag en elbil?"],
    }[lang];
    const names = ["Grok", "Claude", "ChatGPT", "Gemini", "DeepSeek", "Qwen", "Mistral", "Llama", "Perplexity", "OneSeek"];
    const changed = new Set<string>();
    for (const question of questions) {
      const answers = names.map((n) => ask({ phase: "answer", participant: who(n), topic: question }));
      names.forEach((name, i) => {
        const others = answers
          .filter((_, j) => j !== i)
          .slice(0, 3)
          .map((a, j) => `--- Response ${"BCD"[j]} ---\n${a}\n\n`)
          .join("");
        const values = { question, own_response: answers[i], other_responses: others };
        const text = ask({ phase: "revision", participant: who(name), topic: question }, [
          new HumanMessage(renderTemplate("revision", REVISE_REVISION, values)),
        ]);
        const parsed = parseRevision(text);
        if (parsed.decision === "STAND") return;
        changed.add(parsed.decision!);
        // "I have added it" / "combined their best points with my own": nothing of the original is lost.
        for (const line of answers[i].split("\n").filter(Boolean)) expect(parsed.revisedResponse).toContain(line);
        expect(countWords(parsed.revisedResponse!), `${name}: ${parsed.reasoning}`).toBeGreaterThan(countWords(answers[i]));
        expectAbout(parsed.revisedResponse!, question, lang);
      });
    }
    expect([...changed].sort()).toEqual(["MERGE", "REVISE"]);
  });
});

describe("the simulated wording", () => {
  /** Every simulated text about a topic: answers, /debatt turns, a judge's reply and a council report. */
  const textsAbout = (topic: string) =>
    ["Grok", "Claude", "ChatGPT", "Gemini"].flatMap((name) => [
      ask({ phase: "answer", participant: who(name), topic }),
      ask({ phase: "turn", participant: who(name), round: 2, topic }, [new HumanMessage(`[Claude]: …\n[Gemini]: …`)]),
      ask({ phase: "judge", participant: who(name), round: 1, topic }),
      ask({ phase: "council_report", participant: undefined, topic }),
    ]);

  it("names what the question is about with a phrase of it, not a lone fragment or a verb", () => {
    expect(keywordsOf("Nuclear power is the safest energy source.")[0]).toBe("nuclear power");
    expect(keywordsOf("Which programming language is best for beginners?")).toEqual(["programming language", "beginners"]);
    expect(keywordsOf("Vilket programmeringsspråk passar nybörjare bäst?")).toEqual(["programmeringsspråk", "nybörjare"]);
    expect(keywordsOf("Should cities ban cars from their centres?")).toEqual(["cities", "cars", "centres"]);
    expect(keywordsOf("Bör skolor förbjuda mobiltelefoner?")).toEqual(["skolor", "mobiltelefoner"]);
    expect(keywordsOf("Should AI be regulated?")).toEqual(["AI"]);
    expect(keywordsOf("Is coffee healthy?")).toEqual(["coffee"]);
    expect(keywordsOf("Remote work makes teams slower.")).toEqual(["remote work", "teams"]);
    expect(keywordsOf("What is the meaning of life?")).toEqual(["meaning of life"]);
    const topics = [
      "Nuclear power is the safest energy source.",
      "Should AI be regulated?",
      "Is coffee healthy?",
      EXAMPLES.question.en,
      "Kärnkraft är den säkraste energikällan",
      EXAMPLES.question.sv,
      EXAMPLES.yesNo.sv,
    ];
    for (const topic of topics) {
      const first = topic.split(" ")[0];
      for (const text of textsAbout(topic)) {
        expect(text).not.toMatch(/[“”](?:Nuclear|regulated|healthy|bäst|passar)[”]/);
        // A quoted term is a phrase of several words, or the question's first word (its subject, maybe a name).
        for (const [, quoted] of text.matchAll(/[“”]([^“”"\n]+)”/g)) {
          // The claim itself ("The council's verdict on “…”") is quoted whole.
          if (quoted === topic.replace(/[?!.]+$/, "")) continue;
          expect(quoted.includes(" ") || quoted === first, `“${quoted}” in a text about "${topic}"`).toBe(true);
        }
      }
    }
    // With the question's determiner, a phrase reads as in the question; "my" is the answerer's "your".
    expect(ask({ phase: "answer", topic: "How do I design a database?" })).toContain(" a database");
    expect(ask({ phase: "answer", topic: "How can I improve my sleep?" })).toContain("your sleep");
  });
});

describe("the simulated titles", () => {
  it.each(LANGS)("are whole: a short question as it stands, a longer one as the noun phrases it is about, never cut inside one (%s)", (lang) => {
    const questions = {
      en: [
        EXAMPLES.question.en,
        EXAMPLES.yesNo.en,
        "Which programming language suits web APIs best for a small startup team?",
        "Is coffee healthy?",
        "The Great Wall of China is visible from space with the naked eye.",
        "Nuclear power is the safest energy source",
      ],
      sv: [
        EXAMPLES.question.sv,
        EXAMPLES.yesNo.sv,
        "Vilket programmeringsspråk passar bäst för webb-API:er i en liten startup?",
        "Är kaffe nyttigt?",
        EXAMPLES.council.sv,
        "Ska företag införa fyra dagars arbetsvecka?",
      ],
    }[lang];
    for (const question of questions) {
      const prompt = renderTemplate("title", DELIBERATION_TITLE, { question });
      const title = cleanTitle(ask({ phase: "title", participant: undefined, topic: question }, [new HumanMessage(prompt)]));
      expect(title).not.toMatch(/[?…]$/);
      const sentence = question.replace(/[?.!]$/, "");
      if (sentence.split(" ").length <= WHOLE_TITLE_WORDS) expect(title.toLowerCase()).toBe(sentence.toLowerCase());
      else {
        // Each of its parts is a phrase of the question, whole ("code review", never "code").
        const parts = title.split(/, | and | och /);
        expect(parts.length, title).toBeGreaterThanOrEqual(1);
        for (const part of parts) expect(question.toLowerCase(), `${part} of ${question}`).toContain(part.toLowerCase());
      }
    }
  });
});

describe("the simulated titles and terms of everyday questions", () => {
  const titleOf = (question: string) => cleanTitle(ask({ phase: "title", participant: undefined, topic: question }));

  it("names a long question by its noun phrases, and keeps one of up to ten words whole", () => {
    expect(titleOf("Which database should a small shop use for its orders and stock?")).toBe("Database, small shop and orders");
    expect(titleOf("Which is better for a beginner, a road bike or a hybrid?")).toBe("Road bike, beginner and hybrid");
    expect(titleOf("How can I sleep better when working night shifts?")).toBe("How can I sleep better when working night shifts");
    expect(titleOf("What is the best way for a small team to do code review?")).toBe("Best way, code review and small team");
    expect(titleOf("Which programming language suits web APIs best for a small startup team?")).toBe("Programming language, APIs and small startup team");
    expect(titleOf("How should a small team do code review?")).toBe("How should a small team do code review");
    expect(titleOf("How can a new manager build trust?")).toBe("How can a new manager build trust");
    expect(titleOf("What makes a good first programming project?")).toBe("What makes a good first programming project");
    expect(titleOf("Should a small startup use microservices?")).toBe("Should a small startup use microservices");
    expect(titleOf("Vilken databas ska en liten butik använda för sina ordrar och sitt lager?")).toBe("Databas, liten butik och ordrar");
  });

  it("finds the noun phrases, not an adjective without its noun or a verb taken for a noun", () => {
    const texts = (q: string) => termsOf(q).map((t) => t.text);
    expect(texts("How should a small team do code review?")).toEqual(["a small team", "“code review”"]);
    expect(texts("Should a small team do pair programming?")).toEqual(["a small team", "“pair programming”"]);
    expect(texts("What is the best way for a small team to do code review?")).toEqual(["the best way", "“code review”", "a small team"]);
    expect(texts("Can a small team ship faster?")).toEqual(["a small team"]);
    expect(texts("Why do small teams skip code review?")).toEqual(["“small teams”", "“code review”"]);
    expect(texts("How should a small business price its product?")).toEqual(["a small business", "the product"]);
    expect(texts("Is a small team better than a big one?")).toEqual(["a small team"]);
    expect(texts("How small should a team be?")).toEqual(["a team"]);
    expect(texts("What are the pros and cons of remote work for a big company?")).toEqual(["the pros", "“cons of remote work”", "a big company"]);
    expect(texts("Är ett litet team bättre än ett stort?")).toEqual(["ett litet team"]);
    expect(texts("Hur bör ett litet team göra kodgranskning?")).toEqual(["ett litet team", "kodgranskning"]);
  });
});

describe("the simulated templates", () => {
  it("read correctly whatever the keyword's number or word class", () => {
    for (const topic of ["How are APIs used?", "How do I design a database?", "Is coffee healthy?"]) {
      for (const name of ["Grok", "Claude", "ChatGPT", "Gemini", "Qwen"]) {
        for (const phase of ["answer", "compare"] as const) {
          const text = ask({ phase, participant: who(name), topic });
          expect(text).not.toMatch(/\b(?:APIs|“APIs”) is\b|how “?\w+”? is used|suit “?database|may not suit \w+\b(?! [a-z])/i);
          expectAbout(text, topic, "en");
        }
      }
    }
    expect(keywordsOf("The Great Wall of China is visible from space with the naked eye.")[0]).toBe("Great Wall of China");
    expect(keywordsOf("Is coffee healthy?")[0]).toBe("coffee");
  });

  it("stream the same text through the factory", async () => {
    const factory = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 4 });
    const topic = EXAMPLES.council.en;
    const messages = [new HumanMessage(topic)];
    const streamed = (await factory.create({ phase: "judge", participant: roster[0], round: 1, topic }).invoke(messages)).content;
    expect(streamed).toBe(simulatedAnswer({ phase: "judge", participant: roster[0], round: 1, topic }, messages, {}, SIMULATED_ANSWERS));
  });
});
