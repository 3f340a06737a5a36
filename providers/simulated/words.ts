// The question parser's word lists, English and Swedish: the function words, and the verbs and
// adjectives it knows without a dictionary (see `termsOf` in question.ts).

const wordSet = (list: string) => new Set(list.split(" "));

/** "Is", "är": what follows it is a predicate ("healthy", "regulated"), not a thing the question is about. */
export const COPULAS = wordSet("is are was were be been being am är var vara varit bli blir blev blivit");
/** Auxiliaries and modals: opening a question, they are followed by its subject, then its verb ("Should cities ban…"). */
export const AUXILIARIES = wordSet(
  "should can could will would does do did must may might shall has have had bör borde ska skall kan kunde måste får fick vill ville har hade finns",
);
/** Question words followed by a noun ("Which language…", "Vilket språk…"). */
export const WH_NOUN = wordSet("which what whose vilket vilken vilka vad");
/** Question words followed by an auxiliary ("How do I…"). */
export const WH_OTHER = wordSet("how why when where who whom hur varför när vem vems");
/** Words that open a noun phrase; the phrase keeps them ("the naked eye", "den säkraste energikällan"). */
export const DETERMINERS = wordSet(
  "the a an this these those my your our their his her its every each all some any no both another same many much few several en ett den det de denna detta dessa min mitt mina din ditt dina vår vårt våra er ert era sin sitt sina hans hennes deras varje alla samma några många flera",
);
/**
 * A determiner as the answerer says it: the asker's "my" is "your", someone else's "the"; a
 * quantifier is left out ("many people" → "people"), as is a Swedish possessive of a third person.
 */
export const DETERMINER_AS_SAID: Record<string, string> = {
  my: "your",
  our: "your",
  their: "the",
  his: "the",
  her: "the",
  its: "the",
  this: "the",
  these: "the",
  those: "the",
  every: "the",
  each: "the",
  another: "the",
  all: "",
  some: "",
  any: "",
  no: "",
  both: "",
  many: "",
  much: "",
  few: "",
  several: "",
  min: "din",
  mitt: "ditt",
  mina: "dina",
  vår: "er",
  vårt: "ert",
  våra: "era",
  sin: "",
  sitt: "",
  sina: "",
  hans: "",
  hennes: "",
  deras: "",
  varje: "",
  alla: "",
  några: "",
  många: "",
  flera: "",
};
export const PREPOSITIONS = wordSet(
  "of for from to in on at by with without into onto about than as between against over under after before during through across toward towards via per like versus vs among within av för från till i på med utan om än mellan mot över under efter före inför genom hos vid åt bland inom",
);
export const PRONOUNS = wordSet(
  "i you we they he she it me us them someone anyone everyone something anything jag du vi ni han hon man mig dig oss dem sig någon något",
);
/** Adverbs, particles and degree words: they neither start nor end a noun phrase. */
export const ADVERBS = wordSet(
  "please kindly snälla not never always often usually really still also just only very too so ever already first again more most less least best worst better worse worth enough then there here now today else instead inte aldrig alltid ofta oftast verkligen fortfarande också bara redan först igen mer mest mindre minst bäst sämst bättre sämre mycket snabbast värt ut upp ner in fram bort där här då nu idag annars up out down off away next one two three four five six seven eight nine ten once twice två tre fyra fem sex sju åtta nio tio gånger times",
);
export const CONJUNCTIONS = wordSet(
  "and or but nor so if whether because while that although given considering och eller men samt så ifall eftersom medan att fast som",
);
/** Every word that is not a content word. */
export const FUNCTION_WORDS = new Set([
  ...COPULAS,
  ...AUXILIARIES,
  ...WH_NOUN,
  ...WH_OTHER,
  ...DETERMINERS,
  ...PREPOSITIONS,
  ...PRONOUNS,
  ...ADVERBS,
  ...CONJUNCTIONS,
  "there",
  "det",
  "den",
  "de",
]);

/** Forms of an English verb: base, -s, -es, -ies, -d, -ed. */
function verbForms(list: string): Set<string> {
  const forms = new Set<string>();
  for (const v of list.split(" ")) {
    forms.add(v);
    forms.add(`${v}s`);
    forms.add(`${v}es`);
    forms.add(`${v}d`);
    forms.add(`${v}ed`);
    if (v.endsWith("y")) forms.add(`${v.slice(0, -1)}ies`).add(`${v.slice(0, -1)}ied`);
  }
  return forms;
}
/** English verbs that are rarely nouns: where one stands, the subject has ended ("Remote work makes…"). */
export const VERBS = new Set([
  ...verbForms(
    "ban allow learn replace choose switch start stop keep invest adopt build require regulate limit cause improve reduce increase affect eat hire teach prefer want become make take give get pay buy sell go come drive fly spend lose win beat kill harm hurt protect prevent lead create destroy exist happen mean seem grow bring send leave join ask decide believe think know see say tell try let put abolish mandate subsidize subsidise legalize legalise outlaw prohibit restrict enforce reform privatize nationalize suit outperform explain develop write live last prepare avoid apply handle manage deserve include involve provide offer consider compare remain stay follow cover boost damage lower raise slow speed matter",
  ),
  ..."made took taken gave given got gotten went gone came ran bought sold spent lost won kept left built led held brought sent thought knew known saw seen said told became grew grown drove driven flew flown ate eaten wrote written".split(
    " ",
  ),
]);
/** English verbs that are often nouns too ("remote work", "screen use"): a verb only where no clearer one is found. */
export const NOUN_VERBS = verbForms(
  "work use fund cost rise fall play watch drink answer change need help run cut set tax vote share control look feel fix break show turn rent own save trust support study travel move open close design love hate care cook sleep bike",
);
/**
 * Verbs a request opens with ("Explain how HTTPS works", "Sammanfatta orsakerna…"): the first
 * word, capitalised as it is, is the request's verb, not a name the question is about.
 */
export const IMPERATIVES = wordSet(
  "explain describe summarize summarise compare list give write tell show name define outline discuss analyze analyse evaluate suggest recommend help find make create plan design argue propose rank identify translate estimate calculate review teach draft brainstorm imagine consider assess critique choose pick " +
    "förklara beskriv sammanfatta jämför lista ge skriv berätta visa nämn definiera diskutera analysera utvärdera föreslå rekommendera hjälp hitta gör skapa planera designa argumentera identifiera översätt uppskatta beräkna granska tipsa välj",
);
/** Auxiliaries that are also main verbs: after "to" or another auxiliary, they are the verb ("should a team do code review", "to have tests"). */
export const MAIN_VERB_AUXILIARIES = wordSet("do does did have has had");
/**
 * Common adjectives, English and Swedish: a noun phrase does not end on one ("a small" is not
 * what "Can a small team ship faster?" is about), and where no verb is known, the subject runs
 * past them to its noun ("a small team", then "ship").
 */
export const ADJECTIVES = wordSet(
  "small big large little tiny huge new old young good bad great high low long short early late full hard easy strong weak rich poor local public private safe simple complex common major minor modern cheap expensive fast slow quick " +
    "faster slower quicker cheaper smaller bigger larger longer shorter higher lower easier harder safer stronger weaker newer older " +
    "popular useful important dangerous effective successful possible necessary healthy reliable sustainable efficient affordable fair harmful helpful " +
    "populär populärt populära viktig viktigt viktiga farlig farligt farliga användbar användbart användbara effektiv effektivt effektiva hållbar hållbart hållbara nyttig nyttigt nyttiga " +
    "liten litet lilla små stor stort stora ny nytt nya gammal gammalt gamla god gott goda dålig dåligt dåliga lång långt långa kort korta hög högt höga låg lågt låga snabb snabbt snabba enkel enkelt enkla svår svårt svåra",
);
/** Verbs after which the object is one word and the rest says what becomes of it ("makes teams slower"). */
export const RESULTATIVE = wordSet("make makes made keep keeps kept get gets got render renders");
