import { hashText as hash } from "../../state/random.js";
import type { Simulation } from "./context.js";
import { countWords, type Bank, type ByLang, type Writer } from "./writer.js";

// The two texts several formats write: a debater's turn (/debatt, and a /deep debater's position) and an answer
// to the question (/vote, /revise, /compare, a follow-up), with their sentence banks.

/** Positions on a yes/no question ("Should…?", "Bör…?"): for, against, nuanced. */
const STANCES: ByLang<Bank> = {
  sv: ["ja, jag är för", "nej, jag är emot", "det beror på, och jag landar i en nyanserad hållning"],
  en: ["yes, I am in favour", "no, I am against it", "it depends, and I land on a nuanced position"],
};

/** Positions on an open question ("Which…?", "How…?"), about its own words. */
const OPEN_STANCES: ByLang<Bank> = {
  sv: ["jag sätter {t1} först", "jag utgår från vad som fungerar i praktiken för {t2}", "det beror på, och jag väger {t1} mot {t2}"],
  en: ["I would put {t1} first", "I would start from what works in practice for {t2}", "it depends, and I weigh {t1} against {t2}"],
};

/** The open positions for a question with one telling word. */
const OPEN_STANCES_ONE: ByLang<Bank> = {
  sv: ["jag sätter {t1} först", "jag väger det praktiska kring {t1} tyngst", "det beror på, och jag väger {t1} mot alternativen"],
  en: ["I would put {t1} first", "I would weigh the practical side of {t1} most", "it depends, and I weigh {t1} against the alternatives"],
};

/** An answer to a question (/compare, /vote, /revise): an opening, points about its words, a conclusion. */
export const ANSWER = {
  sv: {
    open: ['Så här skulle jag besvara "{topic}":', 'Kort svar på "{topic}" först, sedan detaljerna:', '"{topic}" har ett praktiskt svar:'],
    points: [
      "Börja med vad du vill få ut av {t1}, och låt det styra resten.",
      "Titta på hur {t1} används i praktiken: små, verkliga exempel lär mer än långa översikter.",
      "Jämför alternativen på det som spelar roll här: insats, kostnad och hur väl vart och ett motsvarar det du behöver av {t2}.",
      "Fråga dem som redan arbetar med {t1}; deras misstag är de billigaste lärdomarna.",
      "Ta ett steg i taget, kontrollera resultatet och justera före nästa steg.",
      "Var försiktig med råd som bortser från din situation: det som fungerar för andra när det gäller {t2} fungerar inte alltid för dig.",
    ],
    close: [
      "Kort sagt: var tydlig med målet för {t1}, börja i liten skala och bygg vidare.",
      "Mitt råd: välj det alternativ för {t1} som passar din situation bäst, och ompröva efter en tid.",
    ],
  },
  en: {
    open: ['Here is how I would answer "{topic}":', 'A short answer to "{topic}" first, then the details:', '"{topic}" has a practical answer:'],
    points: [
      "Start with what you want from {t1}, and let that decide the rest.",
      "Look at {t1} in practice: small, real examples teach more than long overviews.",
      "Compare the options on what matters here: effort, cost, and how well each one matches what you need from {t2}.",
      "Ask people who already work with {t1}; their mistakes are the cheapest lessons.",
      "Take one step at a time, check the result, and adjust before the next step.",
      "Be wary of advice that ignores your own situation: what works for others when it comes to {t2} may not work for you.",
    ],
    close: [
      "In short: be clear about your goal with {t1}, start small and build from there.",
      "My advice: choose the option for {t1} that suits your situation best, and revisit the choice after a while.",
    ],
  },
} as const;

/** A /debatt turn: opening, reply to another participant, sentences about the topic's words, close. */
const TURN = {
  sv: {
    open: [
      'I frågan "{topic}" är mitt svar: {stance}.',
      'Jag vill börja med att ta ställning i frågan "{topic}": {stance}.',
      'När vi diskuterar "{topic}" behöver vi skilja på principer och praktik. Mitt svar: {stance}.',
    ],
    reply: [
      "{other} har en poäng, men argumentet bortser från hur {t1} ser ut i praktiken.",
      "Jag delar delvis {other}s analys av {t1}, men slutsatsen går längre än underlaget räcker till.",
      "Som {other} påpekade finns en målkonflikt kring {t1}, och den måste hanteras öppet.",
    ],
    deepen: [
      "Jag har lyssnat på motargumenten om {t1}, och min hållning har blivit skarpare snarare än annorlunda.",
      "Det starkaste motargumentet hittills gäller {t2}, och det förtjänar ett ärligt svar.",
    ],
    /** For, against and nuanced, on a yes/no question. */
    side: [
      [
        "Skälet för är vad {t1} skulle göra möjligt som inte är möjligt i dag.",
        "Ett ja är det bättre valet, eftersom vinsterna kring {t1} är konkreta och riskerna går att hantera.",
      ],
      [
        "Skälet emot är att kostnaderna kring {t1} är lätta att underskatta och svåra att backa från.",
        "Ett nej är det försiktigare valet, eftersom det vi skulle vinna kring {t1} fortfarande är osäkert.",
      ],
      [
        "Både ett ja och ett nej går för långt: svaret beror på hur vi hanterar {t1} i praktiken.",
        "Ett rakt ja eller nej missar att {t2} drar åt ett annat håll än {t1}.",
      ],
    ],
    body: [
      "Frågan om {tx} är lättare att bedöma utifrån konkreta fall än utifrån allmänna principer.",
      "Mycket av oenigheten om {tx} kommer av olika mål, inte olika fakta.",
      "När det gäller {tx} avgör detaljerna mer än rubriken.",
      "Ett bra test är att fråga vad som skulle ändras i praktiken om vi bedömde {tx} fel.",
      "Den som har arbetat med {tx} vet att det första valet sällan blir det sista.",
      "Vi måste också väga in {t2}, som drar åt ett annat håll än {t1}.",
      "Det starkaste argumentet om {tx} är det som klarar ett konkret motexempel.",
      "Det hjälper att skilja på vad vi vet om {tx} och vad vi bara förväntar oss.",
      "Erfarenheter av {t2} visar hur snabbt en rimlig plan möter praktiska gränser.",
      "Om vi ser på {t1} utifrån {t2} förändras bilden märkbart.",
      "Ett felaktigt val kring {tx} kostar oftast tid, och tid är det de flesta har minst av.",
      "Ingen bestrider att {tx} spelar roll; oenigheten gäller hur mycket, och för vem.",
      "Ett påstående om {tx} bör prövas mot exempel, inte bara mot magkänslan.",
      "Det som fungerar för en person när det gäller {t2} fungerar inte nödvändigtvis för nästa, så en och samma lösning passar inte alla.",
      "Jag vill hellre ha ungefär rätt om {tx} än exakt fel.",
      "Det enklaste alternativet är inte alltid det bästa, men när det gäller {tx} är det ofta rätt ställe att börja.",
      "Att också se på {t3} ger ett fylligare svar än att bara se på {t1}.",
      "Innan vi avgör frågan om {tx} bör vi enas om hur ett bra utfall ser ut.",
      "Små steg som går att ta tillbaka är det klokaste sättet att lära sig vad {tx} verkligen kräver.",
      "De exempel som får mest uppmärksamhet kring {tx} är sällan de typiska.",
    ],
    close: [
      "Sammantaget är det bästa svaret om {t1} det som håller mot verkliga exempel.",
      "Därför står jag fast vid min hållning: {t1} förtjänar ett konkret svar snarare än ett allmänt.",
      "Min slutsats är att frågan om {t1} förtjänar mer nyans än den brukar få.",
    ],
  },
  en: {
    open: [
      'On "{topic}" my answer is: {stance}.',
      'Let me take a clear position on "{topic}" first: {stance}.',
      'When we discuss "{topic}" we must separate principles from practice. My answer: {stance}.',
    ],
    reply: [
      "{other} makes a fair point, but the argument leaves out what {t1} looks like in practice.",
      "I partly share {other}'s analysis of {t1}, but the conclusion goes further than the evidence allows.",
      "As {other} noted, there is a trade-off around {t1}, and it must be handled openly.",
    ],
    deepen: [
      "I have listened to the counter-arguments about {t1}, and my position has become sharper rather than different.",
      "The strongest counter-argument so far concerns {t2}, and it deserves an honest answer.",
    ],
    side: [
      [
        "The case for it rests on what {t1} would make possible that is not possible today.",
        "Saying yes is the better bet, because the gains around {t1} are concrete and the risks can be managed.",
      ],
      [
        "The case against it is that the costs around {t1} are easy to underestimate and hard to undo.",
        "Saying no is the more careful choice, because what we would gain around {t1} is still uncertain.",
      ],
      [
        "Both a plain yes and a plain no go too far: the answer depends on the way we handle {t1} in practice.",
        "A flat yes or no misses that {t2} pulls in a different direction from {t1}.",
      ],
    ],
    body: [
      "The question of {tx} is easier to judge from concrete cases than from general principles.",
      "Much of the disagreement about {tx} comes from different goals, not different facts.",
      "When it comes to {tx}, the details decide more than the headline.",
      "A good test is to ask what would change in practice if we got {tx} wrong.",
      "Anyone who has worked with {tx} knows that the first choice is rarely the last one.",
      "We also have to weigh {t2}, which pulls in a different direction from {t1}.",
      "The strongest argument about {tx} is the one that survives a concrete counter-example.",
      "It helps to separate what we know about {tx} from what we merely expect.",
      "Experience with {t2} shows how quickly a sensible plan meets practical limits.",
      "If we look at {t1} from the point of view of {t2}, the picture changes noticeably.",
      "The cost of a wrong choice about {tx} is usually time, and time is what most people have least of.",
      "Nobody disputes the importance of {tx}; the disagreement is about how much it weighs, and for whom.",
      "A claim about {tx} should be checked against examples, not only against intuition.",
      "What works for one person when it comes to {t2} may not work for the next, so a single answer will not fit everyone.",
      "I would rather be roughly right about {tx} than precisely wrong about it.",
      "The simplest option is not always the best one, but with {tx} it is often the right place to start.",
      "Looking at {t3} as well gives a fuller answer than looking at {t1} alone.",
      "Before we settle the question of {tx}, we should agree on what a good outcome would look like.",
      "Small, reversible steps are the sensible way to learn what {tx} really demands.",
      "The examples that get the most attention around {tx} are rarely the typical ones.",
    ],
    close: [
      "All in all, the best answer about {t1} is the one that holds up against real examples.",
      "That is why I keep my position: {t1} deserves a concrete answer rather than a general one.",
      "My conclusion is that the question of {t1} deserves more nuance than it usually gets.",
    ],
  },
} as const;

/** A speaker's position on the topic, by the speaker: 0 for, 1 against, 2 nuanced. */
const stanceIndex = ({ topic }: Simulation, who: string) => hash(who + topic) % 3;
/** A speaker's position, as its turn opens with it (about the question's words on an open question). */
const stanceOf = (s: Simulation, w: Writer, who: string) =>
  w.fill((s.yesNo ? STANCES : s.vars.t2 === s.vars.t1 ? OPEN_STANCES_ONE : OPEN_STANCES)[s.lang][stanceIndex(s, who)]);

/** A /debatt turn (also a /deep debater's position): about the topic's words, no sentence twice. */
export function turnText(s: Simulation, w: Writer, words: number, others: string[], turnRound: number): string {
  const { lang, me, yesNo } = s;
  const t = TURN[lang];
  const parts = [w.one(t.open, { stance: stanceOf(s, w, me) })];
  if (others.length > 0) parts.push(w.one(t.reply, { other: others[w.index(others.length)] }));
  if (turnRound >= 3) parts.push(w.one(t.deepen));
  if (yesNo) parts.push(w.one(t.side[stanceIndex(s, me)]));
  const close = w.one(t.close);
  let count = countWords(parts.join(" ")) + countWords(close);
  // A long answer goes round the body's sentences again.
  const body = w.draw(t.body, t.body.length);
  for (let i = 0; count < words && body.length > 0; i++) {
    parts.push(body[i % body.length]);
    count += countWords(body[i % body.length]);
  }
  parts.push(close);
  return parts.join(" ");
}

/** A /vote, /revise or /compare answer. */
export function answerText({ lang }: Simulation, w: Writer): string {
  const a = ANSWER[lang];
  const points = w.draw(a.points, 3 + w.index(2));
  return [w.one(a.open), "", ...points.map((p) => `- ${p}`), "", w.one(a.close)].join("\n");
}
