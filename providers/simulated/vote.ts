import { hashText as hash, seededRandom } from "../../state/random.js";
import { parseTaskAnswer, solveTaskQuestion } from "../../state/evaluation/tasks.js";
import { renderLetterVote } from "../../state/replies/letter-vote.js";
import { renderRevision } from "../../state/replies/revision.js";
import type { PhaseAnswer, PhaseAnswers } from "./context.js";
import { ANSWER } from "./prose.js";

/** /vote and /revise: ballot reasons (about answers, not debate turns), revisions and restatements. */
const DELIBERATION = {
  sv: {
    ballot: [
      '{label} ger det mest användbara svaret på "{topic}": det är konkret om {t1} och lätt att följa.',
      "{label} är det tydligaste och mest fullständiga svaret: det tar upp {t1} och {t2} utan utfyllnad.",
      "{label} svarar mest direkt på frågan och ger praktiska steg för {t1}.",
    ],
    reason: {
      STAND: [
        "Mitt svar täcker redan {t1}, och de andra svaren tillför inget faktum som ändrar det.",
        "De andra svaren säger samma sak om {t1} som mitt, bara med andra ord, så jag står fast vid mitt svar.",
      ],
      REVISE: [
        "Ett annat svar visade att mitt svar om {t1} sa för lite om {t2}, så jag har lagt till det.",
        "Ett annat svar visade att mitt svar utelämnade ett praktiskt steg kring {t1}, så jag har lagt till det.",
      ],
      MERGE: [
        "De andra svaren tog upp {t2} bättre än mitt, så jag har förenat deras bästa poänger om {t1} med mina egna.",
        "Vart och ett av svaren hade en del av bilden av {t1}, så jag har förenat dem till ett.",
      ],
    },
    /** What a REVISE adds, for each of its reasons in order: the part about {t2}, the practical step. */
    added: [
      [
        "Väg också in {t2}: det avgör vilket val kring {t1} som är rätt, så kontrollera det innan du bestämmer dig.",
        "Ta reda på vad {t2} betyder för dig innan du bestämmer dig; det bästa valet kring {t1} beror på det.",
      ],
      [
        "Ett praktiskt första steg: pröva {t1} på en liten, verklig uppgift den här veckan och notera vad som var svårare än väntat.",
        "Innan du bestämmer dig, testa {t1} på ett litet, verkligt fall och jämför resultatet med vad du väntade dig.",
      ],
    ],
    restate: [
      'Mitt svar på "{topic}" var att utgå från vad du vill få ut av {t1} och ta ett prövat steg i taget. Det viktigaste belägget är att konkreta exempel på {t1} lär mer än allmänna översikter.',
      'Jag besvarade "{topic}" med praktiska steg kring {t1}: var tydlig med målet, jämför alternativen och ompröva valet. Det vilar på erfarenheter från dem som redan arbetar med {t1}.',
    ],
  },
  en: {
    ballot: [
      '{label} gives the most useful answer to "{topic}": it is concrete about {t1} and easy to follow.',
      "{label} is the clearest and most complete answer: it covers {t1} and {t2} without padding.",
      "{label} answers the question most directly and gives practical steps for {t1}.",
    ],
    reason: {
      STAND: [
        "My answer already covers {t1}, and the other responses add no fact that would change it.",
        "The other responses say the same about {t1} as mine, in other words, so I stand by my answer.",
      ],
      REVISE: [
        "Another response showed that my answer about {t1} said too little about {t2}, so I have added it.",
        "Another response showed that my answer left out a practical step for {t1}, so I have added it.",
      ],
      MERGE: [
        "The other responses covered {t2} better than mine, so I have combined their best points about {t1} with my own.",
        "Each response had part of the picture of {t1}, so I have combined them into one.",
      ],
    },
    /** What a REVISE adds, for each of its reasons in order: the part about {t2}, the practical step. */
    added: [
      [
        "Take {t2} into account as well: the right choice about {t1} depends on that, so look into that before you decide.",
        "Check what difference {t2} makes in your case before you decide; the best choice about {t1} depends on that.",
      ],
      [
        "A practical first step: try {t1} on one small, real task this week, and note what was harder than expected.",
        "Before you commit, test {t1} on a small, real case and compare the result with what you expected.",
      ],
    ],
    restate: [
      'My answer to "{topic}" was to start from what you want from {t1} and to take one tested step at a time. The key evidence is that concrete examples of {t1} teach more than general overviews.',
      'I answered "{topic}" with practical steps about {t1}: be clear about the goal, compare the options, and revisit the choice. That rests on the experience of people who already work with {t1}.',
    ],
  },
} as const;

/** The answers a ballot or tiebreak prompt shows, by label (`--- Response A ---` or `--- Response A (2 votes) ---`, then the text). */
function responsesIn(prompt: string): Map<string, string> {
  const parts = prompt.split(/^--- (Response [A-Z])(?: \(\d+ votes?\))? ---[ \t]*$/m);
  const shown = new Map<string, string>();
  // Each answer is followed by a blank line, the last one then by the rest of the prompt (after a second blank line).
  for (let i = 1; i + 1 < parts.length; i += 2) shown.set(parts[i], parts[i + 1].split(/\n[ \t]*\n[ \t]*\n/)[0].trim());
  return shown;
}

/**
 * The answer a simulated voter prefers: each answer has a quality for the question (the same for
 * every voter) and each voter its own taste, so votes split, with now and then a tie, as real
 * voters' do. Both are seeded by the answer's text (by its label when the text is not shown), so a
 * question gets the same votes whatever the labels' order.
 */
function bestOf(labels: string[], keyOf: (label: string) => string, topic: string, voter: string): string | undefined {
  const unit = (text: string) => seededRandom(hash(text))();
  // Quality and taste weigh the same: with seven voters about one question in five ties, and the rest split.
  const score = (label: string) => unit(`quality|${topic}|${keyOf(label)}`) + unit(`taste|${voter}|${topic}|${keyOf(label)}`);
  return labels.reduce<string | undefined>((best, l) => (best === undefined || score(l) > score(best) ? l : best), undefined);
}

/** The original answer a /revise revision prompt shows (`YOUR ORIGINAL RESPONSE:`), when it can be found. */
export function originalIn(prompt: string): string | null {
  const m = /YOUR ORIGINAL RESPONSE:[ \t]*\n([\s\S]*?)\n\s*\n(?:OTHER RESPONSES:|In 2-3 sentences)/.exec(prompt);
  return m?.[1].trim() || null;
}

/** The bullet points of the other answers a /revise revision prompt shows (`OTHER RESPONSES:`). */
function otherPointsIn(prompt: string): string[] {
  const others = /OTHER RESPONSES:\s*\n([\s\S]*?)(?:\nInstructions:|$)/.exec(prompt)?.[1] ?? "";
  return [...others.matchAll(/^\s*[-*•]\s+(.+?)\s*$/gm)].map((m) => m[1]);
}

/** An answer with points added after its last bullet point (at its end when it has none). */
function withPoints(answer: string, points: string[]): string {
  const lines = answer.split("\n");
  const last = lines.findLastIndex((l) => /^\s*[-*•]\s+/.test(l));
  const added = points.map((p) => `- ${p}`);
  if (last < 0) return [answer, "", ...added].join("\n");
  return [...lines.slice(0, last + 1), ...added, ...lines.slice(last + 1)].join("\n");
}

/** A ballot (with its reason) or the chairman's tiebreak (the vote line only). */
const letterVote: PhaseAnswer = ({ request, prompt, topic, opts, me, writer, lang, simulate }) => {
  const labels = request.candidates ?? [];
  const shown = responsesIn(prompt);
  // An evaluation's task question: the voter backs the final answer most of the answers reach.
  const task = opts.accuracy !== undefined ? solveTaskQuestion(topic) : undefined;
  if (task) {
    const valueOf = (l: string) => parseTaskAnswer(task.task, shown.get(l) ?? "");
    const counts = new Map<string, number>();
    for (const l of labels) if (valueOf(l) !== undefined) counts.set(valueOf(l)!, (counts.get(valueOf(l)!) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    const backed = labels.find((l) => valueOf(l) === common) ?? labels[0] ?? "Response A";
    return renderLetterVote(backed, request.phase === "ballot" ? writer().one(DELIBERATION[lang].ballot, { label: backed }) : undefined);
  }
  // A voter recognises its own answer (every line of what it answered) and votes for another.
  const mine = simulate({ ...request, phase: "answer", round: undefined }, [], opts)
    .split("\n")
    .filter((l) => l.trim());
  const own = (label: string) => request.phase === "ballot" && mine.every((l) => shown.get(label)?.includes(l));
  const choice =
    bestOf(
      labels.filter((l) => !own(l)),
      (l) => shown.get(l) ?? l,
      topic,
      me,
    ) ??
    labels[0] ??
    "Response A";
  // A ballot judges answers, so its reason is about the answer's content; the tiebreak is the vote line only.
  return renderLetterVote(choice, request.phase === "ballot" ? writer().one(DELIBERATION[lang].ballot, { label: choice }) : undefined);
};

/** /vote's and /revise's simulated ballots, tiebreaks, restatements and revisions. */
export const voteAnswers = {
  ballot: letterVote,
  tiebreaker: letterVote,
  restate: ({ writer, lang }) => writer().one(DELIBERATION[lang].restate),
  revision: ({ request, prompt, me, topic, opts, writer, lang, vars, simulate }) => {
    const decision = (["REVISE", "STAND", "MERGE"] as const)[hash(`${me}|${topic}`) % 3];
    const original = originalIn(prompt) ?? simulate({ ...request, phase: "answer", round: undefined }, [], opts);
    const d = DELIBERATION[lang];
    const w = writer();
    // A STAND keeps the original answer: the revised response repeats it word for word.
    if (decision === "STAND") return renderRevision(decision, w.one(d.reason.STAND), original);
    // REVISE and MERGE keep the original and add what the reason says was missing, so the revised answer
    // is never shorter than the one it revises.
    const have = new Set(original.split("\n").map((l) => l.replace(/^\s*[-*•]\s*/, "").trim()));
    for (const line of have) w.used.add(line);
    if (decision === "REVISE") {
      const which = vars.t2 === vars.t1 ? 1 : w.index(2);
      return renderRevision(decision, w.fill(d.reason.REVISE[which]), withPoints(original, [w.one(d.added[which])]));
    }
    // A merge takes the others' points it lacks (from the prompt), else points of its own it had left out.
    const theirs = w.draw([...new Set(otherPointsIn(prompt).filter((p) => !have.has(p)))], 2);
    const points = theirs.length > 0 ? theirs : w.draw(ANSWER[lang].points, 2);
    return renderRevision(decision, w.one(d.reason.MERGE), withPoints(original, points.length > 0 ? points : [w.one(d.added[1])]));
  },
} satisfies PhaseAnswers;
