import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { simulatedAnswer } from "../providers/simulated/dispatch.js";
import { simulatedTitle, termsOf, WHOLE_TITLE_WORDS } from "../providers/simulated/question.js";
import { SIMULATED_ANSWERS } from "../service/formats.js";
import { FORMAT_IDS, FORMATS } from "../state/formats.js";

/**
 * The simulated provider writes about a question's subject. Checked on several hundred questions,
 * generated from templates in English and Swedish: each template says which of its words are verbs
 * (the request's "Explain", the question's "makes"), and each subject is a noun phrase whose words
 * a term must keep whole. A check that flags a verb taken for the subject, a subject cut in two,
 * and a title cut mid-phrase.
 */

/** A question template: `{}` is the subject; `verbs` are its own words that are verbs. */
type Template = [text: string, verbs: string[]];

const EN: Template[] = [
  ["What makes {} good?", ["makes"]],
  ["What drives {} today?", ["drives"]],
  ["Explain how {} works.", ["explain", "works"]],
  ["Please explain {} to a child.", ["explain"]],
  ["Summarize the history of {}.", ["summarize"]],
  ["Describe {} in simple terms.", ["describe"]],
  ["How does {} work?", ["work"]],
  ["Why is {} so popular?", []],
  ["What is the best argument for {}?", []],
  ["Should schools teach {}?", ["teach"]],
  ["Is {} worth learning in 2027?", ["learning"]],
  ["Compare {} with the alternatives.", ["compare"]],
  ["What are the risks of {}?", []],
  ["Give me three reasons to use {}.", ["give", "use"]],
  ["Can {} replace human teachers?", ["replace"]],
  ["How should a beginner learn {}?", ["learn"]],
  ["Tell me about {}.", ["tell"]],
  ["What do experts think about {}?", ["think"]],
  ["Write a short plan for adopting {} in a small company.", ["write", "adopting"]],
  ["List the pros and cons of {}.", ["list"]],
];
const EN_SUBJECTS = [
  "nuclear power",
  "remote work",
  "electric cars",
  "machine learning",
  "public transport",
  "solar energy",
  "TypeScript",
  "open source software",
  "social media",
  "online banking",
  "vertical farming",
  "quantum computing",
  "basic income",
  "code review",
  "container shipping",
];

const SV: Template[] = [
  ["Vad gör {} bra?", ["gör"]],
  ["Vad driver {} i dag?", ["driver"]],
  ["Förklara hur {} fungerar.", ["förklara", "fungerar"]],
  ["Snälla förklara {} för ett barn.", ["förklara"]],
  ["Sammanfatta historien om {}.", ["sammanfatta"]],
  ["Beskriv {} enkelt.", ["beskriv"]],
  ["Hur fungerar {}?", ["fungerar"]],
  ["Varför är {} så populärt?", []],
  ["Vilka är riskerna med {}?", []],
  ["Jämför {} med alternativen.", ["jämför"]],
  ["Ge tre skäl att använda {}.", ["ge", "använda"]],
  ["Berätta om {}.", ["berätta"]],
  ["Vad tycker experter om {}?", ["tycker"]],
  ["Skriv en kort plan för att införa {} i ett litet företag.", ["skriv", "införa"]],
  ["Lista för- och nackdelarna med {}.", ["lista"]],
];
const SV_SUBJECTS = [
  "kärnkraft",
  "distansarbete",
  "elbilar",
  "maskininlärning",
  "kollektivtrafik",
  "solenergi",
  "TypeScript",
  "öppen källkod",
  "sociala medier",
  "basinkomst",
  "kodgranskning",
  "vertikal odling",
  "kvantdatorer",
  "internetbanker",
  "containerfrakt",
];

const questions = [
  ...EN.flatMap(([text, verbs]) => EN_SUBJECTS.map((subject) => ({ question: text.replace("{}", subject), verbs, subject }))),
  ...SV.flatMap(([text, verbs]) => SV_SUBJECTS.map((subject) => ({ question: text.replace("{}", subject), verbs, subject }))),
];

/** What is wrong with the simulated reading of one question, in words; empty when nothing is. */
function faults({ question, verbs, subject }: { question: string; verbs: string[]; subject: string }): string[] {
  const out: string[] = [];
  const terms = termsOf(question);
  const cores = terms.map((t) => t.core.toLowerCase());
  for (const core of cores) if (verbs.some((v) => core === v || core.split(" ")[0] === v)) out.push(`verb as a term: "${core}"`);
  if (!cores.some((c) => c.includes(subject.toLowerCase()))) out.push(`subject "${subject}" not whole in ${JSON.stringify(cores)}`);
  const title = simulatedTitle(question);
  const words = question.replace(/[?!.]+$/, "").split(/\s+/);
  if (words.length > WHOLE_TITLE_WORDS && !title.toLowerCase().includes(subject.toLowerCase())) out.push(`title "${title}" leaves out "${subject}"`);
  if (words.length <= WHOLE_TITLE_WORDS && title !== words.join(" ").replace(/^./, (c) => c.toUpperCase()))
    out.push(`title "${title}" is not the whole question`);
  // A simulated answer names no verb as what it is about, quoted or as an object.
  const answer = simulatedAnswer(
    { phase: "answer", topic: question, participant: { key: "k", display: "Claude", model: "m" } },
    [new HumanMessage(question)],
    {},
    SIMULATED_ANSWERS,
  );
  for (const v of verbs) if (new RegExp(`[“”"]${v}[“”"]|\\b(from|with|about|om|med) ${v}\\b`, "iu").test(answer)) out.push(`answer writes about "${v}"`);
  return out;
}

describe("the simulated provider reads a question's subject, in several hundred generated questions", () => {
  it(`flags no verb taken for the subject, no subject cut, no title cut (${questions.length} questions, English and Swedish)`, () => {
    expect(questions.length).toBeGreaterThan(500);
    const found = questions.flatMap((q) => faults(q).map((f) => `${q.question}: ${f}`));
    expect(found).toEqual([]);
  });

  it("reads the questions a newcomer tried: no verb or command word taken for the subject", () => {
    expect(termsOf("What makes a good first programming project?").map((t) => t.core)).toEqual(["programming project"]);
    expect(termsOf("Explain how HTTPS works.").map((t) => t.core)).toEqual(["HTTPS"]);
    expect(termsOf("What is the best sorting algorithm for nearly sorted data?")[0].core).toBe("sorting algorithm");
    expect(termsOf("Vad gör ett bra första programmeringsprojekt?").map((t) => t.core)).toEqual(["bra första programmeringsprojekt"]);
    expect(simulatedTitle("What is the best sorting algorithm for nearly sorted data?")).toBe("What is the best sorting algorithm for nearly sorted data");
    // The second trial's: a gerund, a compound noun, the object of "ban", a role, "the best way to…".
    const cores = (q: string) => termsOf(q).map((t) => t.core);
    expect(cores("How can I sleep better when working night shifts?")).toEqual(["night shifts"]);
    expect(cores("Which is better for a beginner, a road bike or a hybrid?")[0]).toBe("road bike");
    expect(cores("Should cities ban cars from their centres?").slice(0, 2)).toEqual(["cities", "cars"]);
    expect(cores("Hur lär man sig bäst ett nytt språk som vuxen?")[0]).toBe("nytt språk");
    expect(cores("What is the best way to learn a new language as an adult?")[0]).toBe("new language");
    expect(cores("Drinking eight glasses of water a day is necessary.")[0]).toBe("glasses of water");
    expect(cores("What is the best way to learn to cook?")).not.toContain("cook");
    expect(simulatedTitle("Which is better for a beginner, a road bike or a hybrid?")).toBe("Road bike, beginner and hybrid");
  });

  it("the check finds what it looks for", () => {
    // A reading that took the verb for the subject, and one that left the subject out, are flagged.
    expect(faults({ question: "Explain how nuclear power works.", verbs: ["explain", "works"], subject: "nuclear fusion" })).toEqual([
      'subject "nuclear fusion" not whole in ["nuclear power"]',
    ]);
    expect(faults({ question: "What makes remote work good?", verbs: ["remote"], subject: "remote work" })).toContainEqual('verb as a term: "remote work"');
  });
});

describe("the simulated chat reply", () => {
  it("answers the question, says it was simulated and offers every format, in the question's language", () => {
    for (const [question, simulated, answered] of [
      ["Hello, what can you do?", "This answer was simulated", false],
      ["Hej, vad kan du göra?", "Svaret var simulerat", false],
      ["What is a good first programming language for a child?", "This answer was simulated", true],
      ["Hur lär man sig bäst ett nytt språk som vuxen?", "Svaret var simulerat", true],
    ] as const) {
      const reply = simulatedAnswer({ phase: "supervisor", topic: question }, [new HumanMessage(question)], {}, SIMULATED_ANSWERS);
      expect(reply).toContain(simulated);
      for (const id of FORMAT_IDS) expect(reply, id).toContain(`\`${FORMATS[id].command} <`);
      // A question is answered first, on its own subject; a greeting is not.
      expect(reply.indexOf(simulated) > 0, question).toBe(answered);
      if (answered) expect(reply.slice(0, reply.indexOf(simulated)), question).toMatch(/programming language|nytt språk/);
    }
  });
});
