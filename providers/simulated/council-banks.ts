import type { Bank, ByLang } from "./writer.js";

// /council's sentence banks: what a judge writes from its perspective, for its verdict, and in the council's report.

/** The perspectives of /council's judges (prompts/council.ts), as a judge writes about its own. */
type Perspective = { lead: Bank; insight: Bank; finding: Bank };
export const PERSPECTIVES: ByLang<Record<string, Perspective>> = {
  sv: {
    correctness: {
      lead: [
        "Ur korrekthetsperspektivet läser jag {claim} som ett faktapåstående om {t1} och prövar om det håller som det är skrivet.",
        "Jag har bedömt om påståendet är sant som det står, och det är {t1} som bär det.",
      ],
      insight: [
        "Om påståendet är sant avgörs av {t1}: det framförs som ett rent faktum, utan de villkor under vilka det gäller.",
        "Påståendet om {t1} är starkare än vad som går att visa; som det är formulerat tillåter det inga undantag.",
        "Det påståendet säger om {t2} är det svagaste steget, och resten vilar på det.",
      ],
      finding: [
        "Påståendet om {t1} framförs som fakta, men ingen källa eller mätning anges.",
        "Formuleringen tillåter inga undantag, så ett enda motexempel som gäller {t2} gör det falskt.",
        "Påståendet blandar det som är observerat med det som antas om {t1}.",
      ],
    },
    risk: {
      lead: [
        "Ur riskperspektivet är frågan vad som händer med den som handlar utifrån {claim}.",
        "Jag har sett på vem som kan vilseledas av påståendet, och hur; det är kring {t1} det spelar störst roll.",
      ],
      insight: [
        "Den som litar på påståendet utan att kontrollera {t1} kan handla utifrån en felaktig premiss.",
        "Risken ligger mindre i påståendet självt än i att det som sägs om {t1} upprepas som fastslagen sanning.",
        "Den som tar delen om {t2} för given får ingen varning av påståendet.",
      ],
      finding: [
        "Inget i påståendet varnar läsaren för begränsningarna kring {t1}.",
        "Den som upprepar påståendet om {t2} kan föra ett misstag vidare.",
        "Påståendet ger inget sätt att kontrollera {t1} innan man förlitar sig på det.",
      ],
    },
    completeness: {
      lead: [
        "Ur fullständighetsperspektivet spelar det påståendet utelämnar lika stor roll som det det säger om {t1}.",
        "Jag har letat efter de villkor och alternativ som {claim} skulle behöva för att kunna prövas.",
      ],
      insight: [
        "Påståendet säger inget om villkoren kring {t1}, och utan dem går det inte att pröva fullt ut.",
        "Påståendet utelämnar hur {t2} har observerats eller mätts.",
        "En alternativ förklaring som rör {t1} tas inte upp alls.",
      ],
      finding: [
        "Påståendet utelämnar de villkor som {t1} beror på.",
        "Ingen alternativ förklaring som rör {t2} övervägs.",
        "Påståendet säger inte hur {t1} har fastställts.",
      ],
    },
    evidence: {
      lead: [
        "Ur beläggsperspektivet har jag letat efter källor, data eller egna observationer bakom {claim}.",
        "Jag har bedömt hur väl påståendet om {t1} är underbyggt, inte hur ofta det upprepas.",
      ],
      insight: [
        "Påståendet om {t1} är aldrig starkare än sina belägg, och det anger inga.",
        "Att ett påstående om {t2} upprepas ofta gör det inte till ett belägg.",
        "Slutsatsen om {t1} följer inte av något som påståendet visar.",
      ],
      finding: [
        "Ingen källa anges för påståendet om {t1}.",
        "Påståendet vilar på en allmän föreställning om {t2} snarare än på data.",
        "Det finns ingen observation eller mätning av {t1} att kontrollera.",
      ],
    },
    clarity: {
      lead: [
        "Ur tydlighetsperspektivet måste en läsare kunna avgöra exakt vad {claim} hävdar.",
        "Jag har läst påståendet som dess publik skulle göra och frågat vad det säger om {t1}.",
      ],
      insight: [
        "Påståendet kan läsas på mer än ett sätt, beroende på vad som menas med {t1}.",
        "Formuleringen om {t2} är målande, men målande är inte detsamma som precis.",
        "En läsare kan inte avgöra hur strikt delen om {t1} ska förstås.",
      ],
      finding: [
        "Vad {t1} betyder i påståendet är tvetydigt.",
        "Påståendet säger inte hur {t2} ska förstås.",
        "Formuleringen inbjuder till en starkare läsning av {t1} än vad som kanske avses.",
      ],
    },
    "devils-advocate": {
      lead: [
        "Som djävulens advokat driver jag det starkaste argumentet mot {claim} och bedömer sedan om det håller.",
        "Den bästa invändningen mot påståendet är att det gör ett specialfall som rör {t1} till en allmän sanning.",
      ],
      insight: [
        "Det starkaste argumentet mot påståendet är att det drar längre slutsatser om {t1} än fakta medger.",
        "Om påståendet är fel är det troligen fel om {t2}.",
        "Invändningen håller delvis: påståendet om {t1} kan stämma i vissa fall, men inte som det är formulerat.",
      ],
      finding: [
        "Den starkaste invändningen, att påståendet generaliserar för långt utifrån {t1}, bemöts inte.",
        "Påståendet faller om det visar sig att {t2} beror på villkor som det bortser från.",
        "Inget i påståendet utesluter det uppenbara motexemplet som rör {t1}.",
      ],
    },
  },
  en: {
    correctness: {
      lead: [
        "From the correctness perspective, I read {claim} as a factual statement about {t1} and checked whether it holds as written.",
        "I judged whether the claim is true as stated, with {t1} as the part that carries it.",
      ],
      insight: [
        "Whether the claim is true turns on {t1}: it is stated as a plain fact, without the conditions under which it holds.",
        "The claim about {t1} is stronger than what can be shown; as worded it allows no exceptions.",
        "What the claim says about {t2} is the weakest step, and the rest depends on it.",
      ],
      finding: [
        "The claim about {t1} is stated as fact, but no source or measurement is given.",
        "The wording allows no exceptions, so one counter-example involving {t2} would make it false.",
        "The claim mixes what is observed with what is assumed about {t1}.",
      ],
    },
    risk: {
      lead: [
        "From the risk perspective, the question is what happens to someone who acts on {claim}.",
        "I looked at who could be misled by the claim, and how; it matters most around {t1}.",
      ],
      insight: [
        "Someone who relies on the claim without checking {t1} could act on a false premise.",
        "The risk lies less in the claim itself than in repeating what it says about {t1} as settled fact.",
        "A reader who takes the part about {t2} at face value gets no warning from the claim.",
      ],
      finding: [
        "Nothing in the claim warns the reader about the limits of {t1}.",
        "A reader who repeats the claim about {t2} may pass on a mistake.",
        "The claim gives no way to check {t1} before relying on it.",
      ],
    },
    completeness: {
      lead: [
        "From the completeness perspective, what the claim leaves out matters as much as what it says about {t1}.",
        "I looked for the conditions and alternatives that {claim} would need in order to be checked.",
      ],
      insight: [
        "The claim says nothing about the conditions around {t1}, and without them it cannot be fully checked.",
        "The claim leaves out how {t2} was observed or measured.",
        "An alternative explanation involving {t1} is not considered at all.",
      ],
      finding: [
        "The claim omits the conditions that {t1} depends on.",
        "No alternative explanation involving {t2} is considered.",
        "The claim does not say how {t1} was established.",
      ],
    },
    evidence: {
      lead: [
        "From the evidence perspective, I looked for sources, data or first-hand observations behind {claim}.",
        "I judged how well the claim about {t1} is supported, not how often it is repeated.",
      ],
      insight: [
        "The claim about {t1} is only as strong as its evidence, and it cites none.",
        "Repeating a claim about {t2} often does not turn it into evidence.",
        "The conclusion about {t1} does not follow from anything the claim shows.",
      ],
      finding: [
        "No source is given for the claim about {t1}.",
        "The claim rests on common belief about {t2} rather than on data.",
        "There is no observation or measurement of {t1} to check.",
      ],
    },
    clarity: {
      lead: [
        "From the clarity perspective, a reader has to be able to tell exactly what {claim} asserts.",
        "I read the claim as its audience would, and asked what it says about {t1}.",
      ],
      insight: [
        "The claim can be read in more than one way, depending on what is meant by {t1}.",
        "The wording about {t2} is vivid, but vivid is not the same as precise.",
        "A reader cannot tell how strictly the part about {t1} is meant.",
      ],
      finding: [
        "The meaning of {t1} in the claim is ambiguous.",
        "The claim does not say how {t2} should be understood.",
        "The framing invites a stronger reading of {t1} than may be intended.",
      ],
    },
    "devils-advocate": {
      lead: [
        "As the devil's advocate, I argue the strongest case against {claim} and then judge whether it succeeds.",
        "The best objection to the claim is that it turns a special case involving {t1} into a general rule.",
      ],
      insight: [
        "The strongest case against the claim is that it generalises from {t1} further than the facts allow.",
        "If the claim is wrong, it is most likely wrong about {t2}.",
        "The objection succeeds only in part: the claim about {t1} may hold in some cases, but not as stated.",
      ],
      finding: [
        "The strongest objection, that the claim overgeneralises from {t1}, is not answered.",
        "The claim would fail if {t2} turned out to depend on conditions it ignores.",
        "Nothing in the claim rules out the obvious counter-example involving {t1}.",
      ],
    },
  },
};

export type VerdictName = "PASS" | "WARN" | "FAIL";

/** What a judge says for each verdict, round 2's extra sentences, and the council's report. */
export const COUNCIL = {
  sv: {
    verdictLead: {
      PASS: [
        "Sammantaget håller påståendet ur det här perspektivet.",
        "Jag hittade inget problem som är allvarligt nog att hindra en läsare från att lita på det.",
      ],
      WARN: [
        "Påståendet går att använda, men först när problemen nedan är åtgärdade.",
        "Delar av påståendet håller, men som det är skrivet lovar det mer än det kan visa.",
      ],
      FAIL: ["Som det är skrivet går det inte att lita på påståendet.", "Problemen är så allvarliga att en läsare inte bör förlita sig på påståendet."],
    },
    /** A passing judge's key insight: what holds, not a criticism. */
    passInsight: [
      "Ur det här perspektivet håller påståendet om {t1}: inget i det behöver rättas.",
      "Det som sägs om {t1} klarar den här prövningen, även om en källa skulle stärka det.",
    ],
    recommendation: {
      PASS: [
        "Behåll påståendet och ange en källa för {t1} så att läsaren kan kontrollera det.",
        "Behåll det som det är, men ange var uppgiften om {t1} kommer ifrån.",
      ],
      WARN: ["Precisera påståendet: ange villkoren för {t1} och en källa.", "Skriv om påståendet så att delen om {t1} säger det som faktiskt går att visa."],
      FAIL: [
        "Förlita dig inte på påståendet som det står; kontrollera {t1} mot en primärkälla och formulera om det.",
        "Dra tillbaka påståendet tills uppgiften om {t1} har stöd i belägg.",
      ],
    },
    steelman: [
      "Det starkaste utlåtandet som skiljer sig från mitt vilar på {t2}; jag har vägt det, men det ändrar inte mitt, eftersom ingen domare pekade på en konkret detalj jag missade.",
      "Om jag ger motsidan dess starkaste form: gällde {t1} i varje fall vore ett annat utlåtande rätt, men inget som de andra domarna anför visar det.",
    ],
    restated: "I runda 1 var mitt utlåtande {verdict}.",
    meaning: {
      PASS: "Påståendet håller som det är formulerat.",
      WARN: "Påståendet går att använda först när problemen nedan är åtgärdade.",
      FAIL: "Påståendet bör inte användas som det är skrivet.",
    },
    verdictLine: "Rådets utlåtande om {claim} är **{verdict}** ({counts}).",
    unanimous: "Alla domare kom fram till samma utlåtande, så den viktigaste reservationen är en möjlig gemensam blind fläck.",
    divided: "Domarna var oeniga: {groups}.",
    gave: "{judges} gav {verdict}",
    and: "och",
    severity: { critical: "kritiskt", significant: "betydande", minor: "mindre" } as Record<string, string>,
    perspective: {
      correctness: "korrekthet",
      risk: "risk",
      completeness: "fullständighet",
      evidence: "belägg",
      clarity: "tydlighet",
      "devils-advocate": "djävulens advokat",
    } as Record<string, string>,
    heads: ["## Utlåtande", "## Fynd", "## Där domarna skiljer sig", "## Rekommendation"],
    notes: {
      failed: "Alla domare misslyckades i runda 2, så rapporten bygger på runda 1.",
      partial: "Några domare blev inte klara med runda 2; deras utlåtanden från runda 1 används.",
      skipped: "Runda 2 hoppades över eftersom färre än två domare gav ett utlåtande i runda 1.",
    },
  },
  en: {
    verdictLead: {
      PASS: ["On balance, the claim holds up from this perspective.", "I found no problem serious enough to stop a reader from relying on it."],
      WARN: ["The claim is usable, but only once the problems below are fixed.", "Parts of the claim hold, but as written it promises more than it can show."],
      FAIL: ["As written, the claim cannot be relied on.", "The problems are serious enough that a reader should not rely on the claim."],
    },
    /** A passing judge's key insight: what holds, not a criticism. */
    passInsight: [
      "From this perspective the claim about {t1} holds: nothing in it needs correcting.",
      "What the claim says about {t1} passes this check, though a source would make it stronger.",
    ],
    recommendation: {
      PASS: ["Keep the claim, and add a source for {t1} so that readers can check it.", "Keep it as it is, but say where the statement about {t1} comes from."],
      WARN: [
        "Qualify the claim: state the conditions for {t1}, and cite a source.",
        "Rewrite the claim so that the part about {t1} says what can actually be shown.",
      ],
      FAIL: [
        "Do not rely on the claim as written; check {t1} against a primary source and restate it.",
        "Withdraw the claim until the statement about {t1} is backed by evidence.",
      ],
    },
    steelman: [
      "The strongest verdict that differs from mine rests on {t2}; I have weighed it, and it does not change mine, because no judge pointed to a specific detail I missed.",
      "Steel-manning the other side: if {t1} held in every case, a different verdict would be right, but nothing the other judges cite shows that.",
    ],
    restated: "In round 1 my verdict was {verdict}.",
    meaning: {
      PASS: "The claim holds up as stated.",
      WARN: "The claim is usable only with the problems below fixed.",
      FAIL: "The claim should not be relied on as written.",
    },
    verdictLine: "The council's verdict on {claim} is **{verdict}** ({counts}).",
    unanimous: "All judges reached the same verdict, so the main caveat is a possible shared blind spot.",
    divided: "The judges were divided: {groups}.",
    gave: "{judges} gave {verdict}",
    and: "and",
    severity: { critical: "critical", significant: "significant", minor: "minor" } as Record<string, string>,
    perspective: {
      correctness: "correctness",
      risk: "risk",
      completeness: "completeness",
      evidence: "evidence",
      clarity: "clarity",
      "devils-advocate": "devil's advocate",
    } as Record<string, string>,
    heads: ["## Verdict", "## Findings", "## Where the judges differ", "## Recommendation"],
    notes: {
      failed: "Every judge failed round 2: this report rests on round 1.",
      partial: "Some judges did not finish round 2; their round-1 verdicts are used.",
      skipped: "Round 2 was skipped: fewer than two judges gave a round-1 verdict.",
    },
  },
} as const;
