import type { PlanContext } from "../estimate-plan.js";
import { SIZES } from "../estimate-plan.js";
import { MAX_PARTICIPANTS, MIN_PARTICIPANTS, type FormatFlags, type FormatSpec } from "../format-spec.js";

/** The speaking orders a debate takes before its topic: `--order simultaneous` and `--order sequential`. */
const orderFlags = { "--order simultaneous": { order: "simultaneous" }, "--order sequential": { order: "sequential" } } as const satisfies Record<
  string,
  FormatFlags
>;

/** A debate's participants: 2–8, a model named twice being one. */
const participants = { min: MIN_PARTICIPANTS, max: MAX_PARTICIPANTS, duplicates: "merge" } as const;

/**
 * A debate's calls: three spoken rounds, each turn seeing the earlier ones (each cut to
 * `contextChars`), OneSeek's research when search is configured, the parallel vote, the
 * convergence analysis and the synthesis.
 */
function planDebate({ participants, inputs: x, roundWords, question: q, answer, each, internal, call }: PlanContext): void {
  const { instructions, ballot, assessment, synthesis } = SIZES;
  const turnOut = roundWords.map((words) => Math.min(answer, Math.ceil((words * 4) / 3)));
  const shown = (out: number) => Math.min(out, Math.ceil(x.contextChars / 4));
  let before = 0;
  turnOut.forEach((out) => {
    participants.forEach((p) => {
      call(p.model, instructions + q + before, out);
      if (p.oneseek && x.research) {
        call(p.model, instructions + q, ballot);
        call(p.model, instructions * 2, ballot);
      }
      before += shown(out);
    });
  });
  each(instructions + q + before, ballot);
  internal(instructions + q + before, assessment);
  internal(instructions + q + before + assessment, synthesis);
}

/** /debatt: a written debate; `--order` and `--with-me` (the person takes a seat). */
export const DEBATT = {
  command: "/debatt",
  takes: "topic",
  storedMode: "debatt",
  participants,
  thread: "chat",
  multiTurn: true,
  flags: { ...orderFlags, "--with-me": { withMe: true } },
  /** A turn; a vote; the convergence analysis; the synthesis; OneSeek's research plan and its check. */
  ballots: true,
  phases: ["turn", "vote", "convergence", "synthesis", "research_plan", "research_check"],
  plan: planDebate,
} as const satisfies FormatSpec;

/**
 * /dvoice: a spoken debate; the orders, `--paced` (the text keeps pace with the audio) and
 * `--paced off` (it runs ahead, whatever the voice settings say). No `--with-me`: a person's turn
 * has no voice.
 */
export const DVOICE = {
  command: "/dvoice",
  takes: "topic",
  storedMode: "dvoice",
  participants,
  thread: "chat",
  multiTurn: true,
  flags: { ...orderFlags, "--paced": { voicePacing: "paced" }, "--paced off": { voicePacing: "off" } },
  ballots: true,
  phases: ["turn", "vote", "convergence", "synthesis", "research_plan", "research_check"],
  plan: planDebate,
} as const satisfies FormatSpec;
