import { hashText as hash } from "../../state/random.js";
import { renderArgument } from "../../state/replies/argument.js";
import { renderAssessment } from "../../state/replies/assessment.js";
import { extractJsonObject } from "../../state/replies/json.js";
import type { PhaseAnswers } from "./context.js";
import { turnText } from "./prose.js";

/** /deep: the debaters' arguments, the moderator's assessment and the final synthesis. */
const DEEP = {
  sv: {
    points: [
      "Ett bra svar om {tx} utgår från vad den som frågar faktiskt behöver.",
      "Allmänna rankningar av {tx} döljer hur mycket rätt val beror på sammanhanget.",
      "Konkreta exempel på {tx} avgör mer än abstrakta jämförelser.",
      "Svar som utelämnar {t2} missar halva frågan om {t1}.",
      "Ett fel kring {tx} kostar mest tid, så ett val som är lätt att ompröva slår ett perfekt.",
      "Påståenden om {tx} bör prövas mot verkliga fall, inte bara mot magkänslan.",
      "Flera svar behandlar {tx} som avgjort, men underlaget stöder ett mer villkorat svar.",
      "Den praktiska sidan av {tx} (insats, kostnad och stöd) avgör mer än ryktet.",
      "Att också se på {t3} ändrar vilket svar om {t1} som är mest användbart.",
      "Ett svar om {tx} bör säga när det skulle vara fel, inte bara när det är rätt.",
    ],
    counterPoint: [
      "Deras svar behandlar {t1} som om ett enda val passar alla.",
      "Deras svar säger för lite om {t2}.",
      "Deras svar rangordnar {t1} efter rykte snarare än användning.",
    ],
    counterEvidence: [
      "Vad som passar en person beror på mål och utgångsläge, och det frågar svaret inte efter.",
      "Utan {t2} kan svaret inte skilja ett bra val från ett populärt.",
      "Konkreta fall av {t1} pekar mot ett mer villkorat svar.",
    ],
    consensus: [
      'Debattörerna är överens om att ett bra svar på "{topic}" utgår från konkreta behov och exempel, och att {t1} bör bedömas i sitt sammanhang snarare än efter rykte.',
      "Debattörerna närmar sig ett villkorat svar: frågan om {t1} kommer först, men rätt val beror på {t2} och på vad den som frågar vill uppnå.",
    ],
    disagreements: [
      "Hur mycket vikt {t2} ska få jämfört med {t1}",
      "Om ett och samma svar om {t1} kan passa de flesta",
      "Vilka exempel på {t1} som är typiska snarare än undantag",
    ],
    focus: ["Ge konkreta exempel på {t1}, och säg när ert svar skulle vara fel.", "Bemöt {t2} direkt, och jämför med {t1}."],
    heads: ["## Svar", "## Där debatten var enig", "## Det som fortfarande är omstritt", "## Slutsats"],
    answer: [
      'Det korta svaret på "{topic}": det beror på, men inte godtyckligt; frågan om {t1} bör avgöras av konkreta behov snarare än av rykte.',
      "Börja i vad svaret ska användas till: det bästa valet när det gäller {t1} är det som passar målet och går att ompröva.",
      "Väg in {t2} tillsammans med {t1}: debatten visade att svaret blir svagare om någon av dem utelämnas.",
    ],
    agreed: ["Alla debattörer landade i att behandla {t1} som en fråga om sammanhang snarare än om ett enda rätt svar."],
    conclusion: [
      "I praktiken: välj det som passar ditt mål när det gäller {t1} i dag, pröva det på ett litet, verkligt fall och ompröva när du vet mer.",
      "Det mest användbara svaret om {t1} är villkorat, konkret och lätt att revidera.",
    ],
  },
  en: {
    points: [
      "A good answer about {tx} starts from what the person asking actually needs.",
      "General rankings of {tx} hide how much the right choice depends on context.",
      "Concrete examples of {tx} settle more than abstract comparisons do.",
      "Answers that leave out {t2} miss half of the question about {t1}.",
      "A mistake about {tx} mostly costs time, so a choice that is easy to revisit beats a perfect one.",
      "Claims about {tx} should be checked against real cases, not only intuition.",
      "Several answers treat {tx} as settled, but the evidence supports a more conditional answer.",
      "The practical side of {tx} (effort, cost and support) decides more than its reputation.",
      "Looking at {t3} as well changes which answer about {t1} is the most useful.",
      "An answer about {tx} should say when it would be wrong, not only when it is right.",
    ],
    counterPoint: [
      "Their answer treats {t1} as if one choice fits everyone.",
      "Their answer says too little about {t2}.",
      "Their answer ranks {t1} by reputation rather than by use.",
    ],
    counterEvidence: [
      "What suits one person depends on goals and starting point, which the answer does not ask about.",
      "Without {t2} the answer cannot tell a good choice from a popular one.",
      "Concrete cases of {t1} point to a more conditional answer.",
    ],
    consensus: [
      'The debaters agree that a good answer to "{topic}" starts from concrete needs and examples, and that {t1} should be judged in context rather than by reputation.',
      "The debaters converge on a conditional answer: the question of {t1} comes first, but the right choice depends on {t2} and on what the person asking wants to achieve.",
    ],
    disagreements: [
      "How much weight {t2} should get compared with {t1}",
      "Whether one answer about {t1} can suit most people",
      "Which examples of {t1} are typical rather than exceptional",
    ],
    focus: ["Give concrete examples of {t1}, and say when your answer would be wrong.", "Address {t2} directly, and compare it with {t1}."],
    heads: ["## Answer", "## Where the debate agreed", "## What remains disputed", "## Conclusion"],
    answer: [
      'The short answer to "{topic}": it depends, but not arbitrarily; the question of {t1} should be settled by concrete needs rather than by reputation.',
      "Start from what the answer is for: the best choice about {t1} is the one that fits the goal and can be revisited.",
      "Weigh {t2} alongside {t1}: the debate showed that leaving either out gives a weaker answer.",
    ],
    agreed: ["All debaters ended up treating {t1} as a question of context rather than of a single right answer."],
    conclusion: [
      "In practice: choose what fits your goal for {t1} today, test it on a small, real case, and revisit it once you know more.",
      "The most useful answer about {t1} is conditional, concrete and easy to revise.",
    ],
  },
} as const;

/** The other debaters a /deep debater sees (`### Debater X` before the previous round's arguments). */
function otherDebaters(prompt: string): string[] {
  const others = prompt.split(/^## Previous Round Arguments/m)[0];
  return [...new Set([...others.matchAll(/^### (Debater \S+)/gm)].map((m) => m[1]))];
}

/** /deep's simulated answers: the debaters' arguments, the moderator's assessments and the final answer. */
export const deepAnswers = {
  debater: (sim) => {
    const { request, prompt, me, topic, rnd, writer, lang } = sim;
    const debateRound = request.round ?? 1;
    const h = hash(`${me}|${topic}|${debateRound}`);
    const w = writer();
    const d = DEEP[lang];
    const targets = otherDebaters(prompt);
    const keyPoints = w.draw(d.points, 2 + (h % 2));
    return renderArgument({
      stance: debateRound === 1 ? "maintain" : (["maintain", "partial_concede", "concede"] as const)[h % 3],
      key_points: keyPoints,
      counterpoints: [{ target: targets[h % Math.max(1, targets.length)] ?? "Debater A", point: w.one(d.counterPoint), evidence: w.one(d.counterEvidence) }],
      revision: debateRound === 1 ? "minor_update" : (["no_change", "minor_update"] as const)[h % 2],
      revised_position: turnText(sim, w, 60, [], 2),
      confidence: Math.round((0.6 + rnd() * 0.35) * 100) / 100,
    });
  },
  moderator: ({ request, writer, lang }) => {
    const modRound = request.round ?? 1;
    const w = writer();
    const d = DEEP[lang];
    return renderAssessment({
      should_stop: modRound >= 2,
      agreement_score: Math.min(0.95, Math.round((0.5 + 0.2 * modRound) * 100) / 100),
      new_points_ratio: Math.round((0.45 / Math.max(1, modRound)) * 100) / 100,
      consensus_answer: modRound >= 2 ? w.one(d.consensus) : null,
      remaining_disagreements: w.draw(d.disagreements, 2),
      next_round_focus: modRound >= 2 ? null : w.one(d.focus),
    });
  },
  deep_synthesis: ({ prompt, writer, lang }) => {
    const w = writer();
    const d = DEEP[lang];
    const status = (extractJsonObject(prompt)?.convergence_status ?? {}) as { consensus_answer?: unknown; remaining_disagreements?: unknown };
    const consensus = typeof status.consensus_answer === "string" && status.consensus_answer.trim() ? status.consensus_answer.trim() : w.one(d.agreed);
    w.used.add(consensus);
    const given = Array.isArray(status.remaining_disagreements)
      ? status.remaining_disagreements.filter((s): s is string => typeof s === "string" && s.trim() !== "")
      : [];
    const disputed = [...new Set(given.length > 0 ? given : w.draw(d.disagreements, 2))];
    const sections = [w.draw(d.answer, 2).join(" "), consensus, disputed.map((s) => `- ${s}`).join("\n"), w.one(d.conclusion)];
    return d.heads.map((h, i) => `${h}\n\n${sections[i]}`).join("\n\n");
  },
} satisfies PhaseAnswers;
