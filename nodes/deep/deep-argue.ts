import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeDeps } from "../../ports/node-deps.js";
import { DebaterArgumentSchema, type DebaterArgument, type DebaterTurn } from "../../state/deep.js";
import { whoIs } from "../../state/deliberation.js";
import { extractJsonObject } from "../../state/replies/json.js";
import { streamText } from "../shared/model-call.js";
import { streamAnswer } from "../shared/streamed-answer.js";
import type { ArgueTask } from "./lib/debaters.js";

/**
 * Reads a debater's JSON (plain, fenced or inside prose) against `DebaterArgumentSchema`. Repairs
 * rather than losing the round: a confidence given in percent (85) becomes 0.85, missing lists
 * become empty, and a `no_change` without a position keeps the debater's position so far.
 */
export function parseArgument(text: string, position: string): { ok: true; argument: DebaterArgument } | { ok: false; reason: string } {
  const json = extractJsonObject(text);
  if (!json) return { ok: false, reason: "no JSON object in the answer" };
  const confidence = typeof json.confidence === "number" && json.confidence > 1 && json.confidence <= 100 ? json.confidence / 100 : json.confidence;
  const revision = typeof json.revision === "string" ? json.revision.toLowerCase() : json.revision;
  const parsed = DebaterArgumentSchema.safeParse({
    ...json,
    stance: typeof json.stance === "string" ? json.stance.toLowerCase() : json.stance,
    revision,
    key_points: json.key_points ?? [],
    counterpoints: json.counterpoints ?? [],
    revised_position: typeof json.revised_position === "string" && json.revised_position.trim() ? json.revised_position : position,
    confidence,
  });
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join(".") || "argument"}: ${i.message}`).join("; ") };
  return { ok: true, argument: parsed.data };
}

/**
 * deep_argue: one debater argues one round (one task per debater, in parallel) with the debater
 * prompt, answering in JSON. A failed call, a timeout or JSON that does not fit is this
 * debater's missing turn for the round, with the reason.
 */
export function makeDeepArgue(deps: NodeDeps) {
  return async function deepArgue(task: ArgueTask, config: LangGraphRunnableConfig): Promise<{ turns: DebaterTurn[] }> {
    const ctx = await deps.context(config);
    const p = task.participant;
    const started = performance.now();
    const { text, error } = await streamAnswer(ctx, config, {
      mode: "deep",
      stage: "debate",
      who: whoIs(p),
      timeoutMs: task.timeoutMs,
      call: (signal, onDelta) => {
        const prompt = ctx.prompts.render("deep.debater", {
          question: task.question,
          own_response: task.ownResponse,
          other_responses: task.otherResponses,
          previous_round: task.previousRound,
        });
        const model = deps.models.create({ phase: "debater", participant: p, round: task.round, topic: task.question, maxTokens: ctx.run.maxResponseTokens });
        return streamText(model, [new HumanMessage(prompt)], signal, onDelta);
      },
    });
    const parsed = error ? { ok: false as const, reason: error } : parseArgument(text, task.position);
    const turn: DebaterTurn = {
      round: task.round,
      label: task.label,
      modelKey: p.key,
      display: p.display,
      model: p.model,
      status: parsed.ok ? "ok" : "error",
      ...(parsed.ok ? { argument: parsed.argument } : { error: parsed.reason }),
      responseTimeMs: Math.round(performance.now() - started),
    };
    return { turns: [turn] };
  };
}
