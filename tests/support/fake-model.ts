import type { BaseMessage } from "@langchain/core/messages";
import type { ModelFactory, ModelPhase, ModelRequest } from "../../ports/models.js";
import { TextStreamChatModel, type Reply } from "../../providers/text-stream-model.js";
import type { DebaterArgument } from "../../state/deep.js";
import { renderArgument } from "../../state/replies/argument.js";
import { renderAssessment } from "../../state/replies/assessment.js";
import { renderConvergence } from "../../state/replies/convergence.js";
import { renderVote } from "../../state/replies/debate-vote.js";
import { renderLetterVote } from "../../state/replies/letter-vote.js";
import { renderRanking } from "../../state/replies/ranking.js";
import { renderResearchCheck, renderResearchPlan } from "../../state/replies/research.js";
import { renderRevision } from "../../state/replies/revision.js";
import { renderVerdict, type VerdictBlock } from "../../state/replies/verdict.js";

/** What a scripted call does: answer text (streamed in word pieces), fail, or wait. */
export interface Step {
  text?: string;
  error?: Error;
  /** Milliseconds before the first piece; abortable through the call's signal. */
  latencyMs?: number;
  /** Ignore the abort signal while waiting (a badly behaved provider). */
  ignoreSignal?: boolean;
  /** With `error`: stream `text` first, then fail (a connection lost mid-answer). */
  failAfterText?: boolean;
  /** What the provider reports the call used, in a last chunk (as ChatOpenAI reads `usage`); `cost` as OpenRouter's `usage.cost`. */
  usage?: { input: number; output: number; cached?: number; cost?: number };
  /** What the provider said beside the text, as the stream reader puts it in `response_metadata` (`reasoning`, `sources`). */
  metadata?: Record<string, unknown>;
}

/** One recorded call. */
export interface FakeCall {
  phase: ModelPhase;
  participant?: string;
  round?: number;
  messages: BaseMessage[];
  /** Set when the call's signal aborted before it finished. */
  aborted: boolean;
  finished: boolean;
  /**
   * How many calls of its phase had answered when it was asked: a stage whose calls all say 0 ran
   * in parallel, however busy the machine was.
   */
  answeredBefore: number;
}

/** A script: the step for a request (keyed by participant and phase) and how many calls came before. */
export type Script = (request: ModelRequest, callIndex: number, messages: BaseMessage[]) => Step | string;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** A chat model that plays its script, records what it was sent and honours (or ignores) aborts. */
export class ScriptedChatModel extends TextStreamChatModel {
  constructor(
    private readonly request: ModelRequest,
    private readonly factory: FakeModelFactory,
  ) {
    super({});
  }
  _llmType() {
    return "scripted";
  }
  protected async reply(messages: BaseMessage[], signal: AbortSignal | undefined, onText: (text: string) => void): Promise<Reply> {
    const call: FakeCall = {
      phase: this.request.phase,
      participant: this.request.participant?.key,
      round: this.request.round,
      messages,
      aborted: false,
      finished: false,
      answeredBefore: this.factory.callsOf(this.request.phase).filter((c) => c.finished).length,
    };
    const index = this.factory.calls.length;
    this.factory.calls.push(call);
    signal?.addEventListener("abort", () => (call.aborted = !call.finished), { once: true });
    const raw = this.factory.script(this.request, index, messages);
    const step: Step = typeof raw === "string" ? { text: raw } : raw;
    if (step.latencyMs) await wait(step.latencyMs, step.ignoreSignal ? undefined : signal);
    if (step.error && !step.failAfterText) {
      call.finished = true;
      throw step.error;
    }
    const pieces = (step.text ?? "").match(/\S+\s*/g) ?? [];
    for (const piece of pieces) {
      if (signal?.aborted && !step.ignoreSignal) throw signal.reason;
      onText(piece);
      // As a network stream does: the next piece comes after the caller has handled this one.
      await Promise.resolve();
    }
    call.finished = true;
    if (step.error) throw step.error;
    const u = step.usage;
    const text = pieces.join("");
    const metadata = { ...step.metadata, ...(u?.cost === undefined ? {} : { usage: { cost: u.cost } }) };
    return {
      text,
      ...(u
        ? {
            usage_metadata: {
              input_tokens: u.input,
              output_tokens: u.output,
              total_tokens: u.input + u.output,
              input_token_details: { cache_read: u.cached ?? 0 },
            },
          }
        : {}),
      ...(Object.keys(metadata).length > 0 ? { response_metadata: metadata } : {}),
    };
  }
}

/** A ModelFactory whose models follow a script; `calls` records every call in order. */
export class FakeModelFactory implements ModelFactory {
  readonly simulated = false;
  readonly calls: FakeCall[] = [];
  constructor(readonly script: Script = defaultScript) {}
  create(request: ModelRequest) {
    return new ScriptedChatModel(request, this);
  }
  /** Calls of one phase (and participant key). */
  callsOf(phase: ModelPhase, participant?: string): FakeCall[] {
    return this.calls.filter((c) => c.phase === phase && (participant === undefined || c.participant === participant));
  }
}

/** The text a default-scripted participant says in a round. */
export function answerOf(display: string, round: number): string {
  return `${display} says in round ${round}: arguments ${"point ".repeat(20)}done.`;
}

/**
 * The argument a default-scripted /deep debater makes: a minor update in round 1, no change after
 * (so a default debate stops after round 2, every debater unmoved).
 */
export function stanceOf(display: string, round: number): DebaterArgument {
  return {
    stance: "maintain",
    key_points: [`${display} point ${round}`],
    counterpoints: [],
    revision: round === 1 ? "minor_update" : "no_change",
    revised_position: `${display} position after round ${round}`,
    confidence: 0.8,
  };
}

/** A /council judge's reply: a line of analysis and the JSON verdict block (`extra` adds round-2 fields). */
export function verdictReply(display: string, verdict: "PASS" | "WARN" | "FAIL", extra: Partial<VerdictBlock> = {}): string {
  return renderVerdict(`${display} analysed it.`, {
    judge: display,
    verdict,
    confidence: "HIGH",
    key_insight: `${display} insight`,
    findings: [{ severity: "minor", description: `${display} finding` }],
    recommendation: `${display} recommends`,
    ...extra,
  });
}

/** The revised answer a default-scripted model gives in /revise. */
export function revisedOf(display: string): string {
  return `${display} revised: arguments ${"better ".repeat(10)}done.`;
}

/**
 * A well-behaved debate: every turn answers, every voter votes for the first candidate other than
 * itself (so the first participant wins), convergence and synthesis answer well-formed text.
 */
export const defaultScript: Script = (req) => {
  switch (req.phase) {
    case "turn":
      return answerOf(req.participant!.display, req.round!);
    case "vote": {
      const choice = (req.candidates ?? []).find((c) => c !== req.participant!.display) ?? "";
      return renderVote({ voted_for: choice, short_motivation: `${req.participant!.display} liked ${choice}`, three_bullets: ["a", "b", "c"] });
    }
    case "convergence":
      return renderConvergence({
        merged_summary: "They mostly agreed.",
        overlap_score: 0.6,
        agreements: ["rules matter"],
        disagreements: ["speed"],
        conflicts: [{ between: "A vs B", topic: "speed" }],
        comparative_summary: "Different emphasis.",
      });
    case "synthesis":
      return "## Summary\n\nA fine debate.";
    case "supervisor":
      return "Hello from the supervisor.";
    case "compare":
      return `${req.participant!.display} answers: it depends on the details.`;
    case "answer":
      return answerOf(req.participant!.display, 1);
    case "ballot":
    case "tiebreaker":
      return renderLetterVote((req.candidates ?? ["Response A"])[0], "Clear and practical.");
    case "title":
      return "A Scripted Title";
    case "revision":
      return renderRevision("REVISE", `${req.participant!.display} found a point it missed.`, revisedOf(req.participant!.display));
    case "restate":
      return `${req.participant!.display} restates its position.`;
    case "debater":
      return renderArgument(stanceOf(req.participant!.display, req.round!));
    case "moderator":
      return renderAssessment({
        should_stop: false,
        agreement_score: 0.5,
        new_points_ratio: 0.5,
        consensus_answer: null,
        remaining_disagreements: ["scope"],
        next_round_focus: "scope",
      });
    case "deep_synthesis":
      return "## The deep answer\n\nThe debaters converged.";
    case "judge":
      return verdictReply(req.participant!.display, "PASS");
    case "council_report":
      return "## Council report\n\nThe council agrees.";
    case "ranking":
      // Every ranker ranks the answers in the order shown: Response A first.
      return renderRanking(req.candidates ?? [], `${req.participant!.display} weighed each answer.`);
    case "chairman":
      return "## The chairman's answer\n\nThe council's best answer.";
    case "research_plan":
      return renderResearchPlan(["q1", "q2"]);
    case "research_check":
      return renderResearchCheck([0, 1]);
    case "continue":
      return `${req.participant!.display} goes on from what it said.`;
    case "client_task":
      return '{ "title": "🧪 A Scripted Chore" }';
    case "json_result":
      return '{"answer": "A scripted JSON answer."}';
    default:
      // A phase that asks for no particular shape (a new format's free text) gets a plain answer.
      return `${req.participant?.display ?? "The model"} answers the ${req.phase} step about ${req.topic ?? "the question"}.`;
  }
};

/** A script that changes some steps of another one. */
export function withOverrides(
  override: (req: ModelRequest, i: number, messages: BaseMessage[]) => Step | string | undefined,
  base: Script = defaultScript,
): Script {
  return (req, i, messages) => override(req, i, messages) ?? base(req, i, messages);
}
