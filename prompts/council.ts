/** Default prompts of /council: the verdict block, round 2 and the anti-anchoring protocol. */

import { VERDICT_REPLY, VERDICT_ROUND2_FIELDS } from "../state/replies/verdict.js";
import { P, req, opt, type PromptDefinition } from "./definition.js";

/** The judges' perspectives, one per judge in order; a judge's name carries its perspective (`judge-1 (correctness)`). */
export const COUNCIL_PERSPECTIVES = [
  { name: "correctness", focus: "Is it factually and technically correct? Look for errors, false premises and claims the evidence does not support." },
  { name: "risk", focus: "What could go wrong if someone relies on it? Look for risks, harms, edge cases and missing safeguards." },
  { name: "completeness", focus: "What is missing? Look for omissions, unstated assumptions and alternatives that were not considered." },
  { name: "evidence", focus: "How well is it supported? Look at sources, data and whether the conclusions follow from them." },
  { name: "clarity", focus: "Can its audience understand and act on it? Look for ambiguity, vagueness and misleading framing." },
  { name: "devils-advocate", focus: "Argue the strongest case against it, then judge whether that case succeeds." },
] as const;

/** Round 1: each judge's system prompt. */
export const COUNCIL_JUDGE_SYSTEM = `You are {judge}, a judge on a council that validates claims, plans and texts. Your perspective: {perspective}. {perspective_focus}
Judge independently and concretely; cite specific details. Today's date: {date}.

Write a short analysis, then end with your verdict as a JSON block exactly in this shape:
${VERDICT_REPLY}
PASS: sound as it stands. WARN: usable with the problems fixed. FAIL: wrong or unsafe to rely on.
Write the analysis and the JSON strings in the language of the text you judge.`;

/** Round 1: what each judge is asked to validate. */
export const COUNCIL_PACKET = `Validate the following claim or text:

{claim}`;

/** The anti-anchoring protocol and the round-2 reply, shared by both branches. */
const PROTOCOL = `Follow the anti-anchoring protocol:
1. RESTATE your round-1 position first: 2-3 sentences summarising your verdict and the key evidence that led to it. This anchors you to YOUR OWN reasoning.
2. Only then review the other judges' verdicts below.
3. Evidence bar for changing your verdict: you may change it only if you can cite a SPECIFIC detail, location or factual error that you missed in round 1. "Judge 2 made a good point" is NOT sufficient. "Judge 2 found that the cited study measured something else" IS sufficient.

The other judges' full round-1 verdicts:
{other_verdicts}

End with your round-2 verdict as a JSON block in the round-1 shape, plus two fields:
${VERDICT_ROUND2_FIELDS}`;

/** Round 2 when round 1 was not unanimous (the `disagreed` branch). */
export const COUNCIL_ROUND2_DISAGREED = `Round 2. The judges disagreed in round 1. Steel-man the strongest verdict that differs from yours: state the best case for it before you decide whether it changes anything.

${PROTOCOL}`;

/** Round 2 when round 1 was unanimous (the `agreed` branch). */
export const COUNCIL_ROUND2_AGREED = `Round 2. All judges reached the same verdict in round 1. Unanimity can hide a shared blind spot: steel-man the case AGAINST the common verdict, state what would have to be true for it to be wrong, and check whether it is.

${PROTOCOL}`;

/** The consolidated report, from the final verdicts. */
export const COUNCIL_REPORT = `You consolidate a council of judges who validated this claim or text:

{claim}

The council's final verdicts and their consolidation (JSON):
{consolidation}

Write the council's report in markdown: the consensus verdict and how the judges split, the most important findings by severity (merge duplicates, keep the judges' specifics), where and why judges disagreed, and the recommendation. If the consolidation has a note, state it. Answer in the language of the claim.`;

/** The prompts of /council. */
export const COUNCIL_PROMPTS: readonly PromptDefinition[] = [
  {
    key: "council.judge.system",
    description: "/council: each judge's system prompt (its perspective), ending with the JSON verdict block",
    placeholders: [
      req("judge", "the judge's name, e.g. `judge-1 (correctness)`"),
      req("perspective", "the judge's perspective, e.g. `correctness`"),
      opt("perspective_focus", "what that perspective looks for"),
      P.date(),
    ],
    default: COUNCIL_JUDGE_SYSTEM,
  },
  {
    key: "council.packet",
    description: "/council: what every judge is asked to validate (round 1)",
    placeholders: [req("claim", "the claim or text to validate")],
    default: COUNCIL_PACKET,
  },
  {
    key: "council.round2.disagreed",
    description: "/council --debate: round 2 after a split round 1 (steel-man the other side; anti-anchoring)",
    placeholders: [req("other_verdicts", "the other judges' full round-1 JSON verdicts")],
    default: COUNCIL_ROUND2_DISAGREED,
  },
  {
    key: "council.round2.agreed",
    description: "/council --debate: round 2 after a unanimous round 1 (steel-man the case against; anti-anchoring)",
    placeholders: [req("other_verdicts", "the other judges' full round-1 JSON verdicts")],
    default: COUNCIL_ROUND2_AGREED,
  },
  {
    key: "council.report",
    description: "/council: the consolidated report from the final verdicts",
    placeholders: [req("claim", "the claim or text validated"), req("consolidation", "the final verdicts and their consolidation, as JSON")],
    default: COUNCIL_REPORT,
  },
];
