import { describe, expect, it } from "vitest";
import { promptDefinition } from "../prompts/registry.js";
import { ARGUMENT_REPLY, parseArgument, renderArgument } from "../state/replies/argument.js";
import { ASSESSMENT_REPLY, parseAssessment, renderAssessment } from "../state/replies/assessment.js";
import { CONVERGENCE_REPLY, parseConvergence, renderConvergence } from "../state/replies/convergence.js";
import { DEBATE_VOTE_REPLY, parseVote, renderVote } from "../state/replies/debate-vote.js";
import { LETTER_VOTE_ONLY_REPLY, LETTER_VOTE_REPLY, parseLetterVote, renderLetterVote } from "../state/replies/letter-vote.js";
import {
  parseResearchCheck,
  parseResearchPlan,
  RESEARCH_CHECK_REPLY,
  RESEARCH_PLAN_REPLY,
  renderResearchCheck,
  renderResearchPlan,
} from "../state/replies/research.js";
import { RANKING_REPLY } from "../state/replies/ranking.js";
import { parseRevision, renderRevision, REVISION_REPLY, REVISION_REPLY_CITING } from "../state/replies/revision.js";
import { cleanTitle, renderTitle, shortTitle, TITLE_REPLY } from "../state/replies/title.js";
import { parseVerdict, renderVerdict, VERDICT_REPLY, VERDICT_ROUND2_FIELDS } from "../state/replies/verdict.js";
import { defaultRoster, type Participant } from "../state/participants.js";

/**
 * Each model phase's reply format is declared once (state/replies/): the default prompts ask for
 * it with the module's text, and what the module renders (as the offline provider and the test
 * fake answer) its parser reads back unchanged.
 */
describe("reply formats", () => {
  it.each([
    ["debate.round.4.voting", DEBATE_VOTE_REPLY],
    ["debate.oneseek.round.4", DEBATE_VOTE_REPLY],
    ["debate.convergence.system", CONVERGENCE_REPLY],
    ["debate.mini_planner.system", RESEARCH_PLAN_REPLY],
    ["debate.mini_critic.system", RESEARCH_CHECK_REPLY],
    ["vote.ballot", LETTER_VOTE_REPLY],
    ["revise.ballot", LETTER_VOTE_REPLY],
    ["vote.tiebreaker", LETTER_VOTE_ONLY_REPLY],
    ["deliberation.title", TITLE_REPLY],
    ["revise.revision", REVISION_REPLY],
    ["revise.revision.anti_anchoring", REVISION_REPLY_CITING],
    ["deep.debater", ARGUMENT_REPLY],
    ["deep.moderator", ASSESSMENT_REPLY],
    ["council.judge.system", VERDICT_REPLY],
    ["council.round2.agreed", VERDICT_ROUND2_FIELDS],
    ["council.round2.disagreed", VERDICT_ROUND2_FIELDS],
    ["rank.ranking", RANKING_REPLY],
  ])("the default prompt %s asks for its reply with the shared text", (key, reply) => {
    expect(promptDefinition(key)?.default).toContain(reply);
  });

  it("reads back what it renders", () => {
    const roster: Participant[] = defaultRoster();
    const vote = { voted_for: "Claude", short_motivation: "clear", three_bullets: ["a", "b", "c"] };
    expect(parseVote(renderVote(vote), roster)).toEqual({ ok: true, vote: { voted_for: "Claude", motivation: "clear", bullets: ["a", "b", "c"] } });

    const analysis = {
      merged_summary: "s",
      overlap_score: 0.4,
      agreements: ["x"],
      disagreements: ["y"],
      conflicts: [{ between: "A vs B", topic: "t" }],
      comparative_summary: "c",
    };
    expect(parseConvergence(renderConvergence(analysis))).toEqual({ ok: true, analysis });

    expect(parseResearchPlan(renderResearchPlan(["q1", "q2", "q3"]), 2)).toEqual(["q1", "q2"]);
    expect(parseResearchCheck(renderResearchCheck([2, 0, 9], "note"), 3)).toEqual([2, 0]);

    // The reasoning may weigh another vote; the rendered vote line is what counts.
    expect(parseLetterVote(renderLetterVote("Response C", "I nearly cast VOTE: Response A, but C is sharper."))).toBe("Response C");
    expect(parseLetterVote(renderLetterVote("Response B"))).toBe("Response B");

    expect(parseRevision(renderRevision("MERGE", "A had the data.", "Line one.\n\nLine two."))).toEqual({
      decision: "MERGE",
      reasoning: "A had the data.",
      revisedResponse: "Line one.\n\nLine two.",
    });

    // The offline title: the question's first words (at most six), none left out, cut where a phrase ends, on a
    // word that carries meaning.
    expect(cleanTitle(renderTitle("Should cities ban cars from their centres?"))).toBe("Should cities ban cars");
    expect(renderTitle("The Great Wall of China is visible from space.")).toBe("The Great Wall of China");
    expect(renderTitle("Nuclear power is the safest energy source")).toBe("Nuclear power is the safest energy");
    expect(renderTitle("Blixten slår aldrig ner på samma ställe två gånger.")).toBe("Blixten slår aldrig ner");
    expect(renderTitle("Bör skolor förbjuda mobiltelefoner?")).toBe("Bör skolor förbjuda mobiltelefoner");
    // No article is dropped from the middle of it ("How should small team do code"), and it ends before a small word
    // or a word that opens what follows.
    expect(renderTitle("How should a small team do code review?")).toBe("How should a small team");
    expect(renderTitle("Which programming language suits web APIs best for a small startup team?")).toBe("Which programming language suits web APIs");
    expect(renderTitle("Is a four-day week good for a small company?")).toBe("Is a four-day week good");
    // Given the phrases the question is about, it never cuts one, and best ends right after one.
    expect(renderTitle("How should a small team handle code review?")).toBe("How should a small team handle");
    expect(renderTitle("How should a small team handle code review?", ["small team", "code review"])).toBe("How should a small team");
    expect(renderTitle("How can a new manager build trust?", ["new manager", "trust"])).toBe("How can a new manager");
    // A long question is cut at a word, with an ellipsis, never mid-word.
    expect(shortTitle("Vilket programmeringsspråk passar bäst för webb-API:er i en liten startup?")).toBe("Vilket programmeringsspråk passar bäst för…");
    expect(shortTitle("Which programming language suits web APIs best for a small startup team?")).toBe("Which programming language suits web APIs best…");
    expect(shortTitle("Vilket språk passar bäst för webb-API:er?")).toBe("Vilket språk passar bäst för webb-API:er");

    const argument = {
      stance: "partial_concede" as const,
      key_points: ["k"],
      counterpoints: [{ target: "Debater B", point: "p", evidence: "e" }],
      revision: "minor_update" as const,
      revised_position: "now",
      confidence: 0.7,
    };
    expect(parseArgument(renderArgument(argument), "before")).toEqual({ ok: true, argument });

    const assessment = {
      should_stop: true,
      agreement_score: 0.9,
      new_points_ratio: 0.1,
      consensus_answer: "yes",
      remaining_disagreements: [],
      next_round_focus: null,
    };
    expect(parseAssessment(renderAssessment(assessment))).toEqual({ ok: true, assessment });

    const verdict = {
      judge: "judge-1 (risk)",
      verdict: "WARN" as const,
      confidence: "LOW" as const,
      key_insight: "i",
      findings: [{ severity: "critical" as const, description: "d" }],
      recommendation: "r",
    };
    expect(
      parseVerdict(renderVerdict("An analysis with {braces}.", { ...verdict, r1_restatement: "I said WARN.", change_justification: "" }), "judge-1 (risk)"),
    ).toEqual({
      ok: true,
      verdict,
      restatement: "I said WARN.",
      changeJustification: undefined,
    });
  });
});
