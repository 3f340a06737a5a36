import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { DeltaCoalescer } from "../shared/delta-coalescer.js";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { ROUNDS } from "../../state/debate.js";
import { withoutOpenedThinking } from "../../state/answer.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { buildTranscript } from "./lib/context-chain.js";
import { rethrowIfCancelled, streamText, withTimeout } from "../shared/model-call.js";
import { ArenaBlockFilter } from "./lib/arena-block-filter.js";
import { arenaData, arenaDataBlock, fallbackSynthesis, winnerWords } from "./lib/synthesis-text.js";
import { answerTokens } from "../../state/run-config.js";

/**
 * debate_synthesizer: the final analysis, streamed as `text_delta`. It opens with the
 * debate-arena-data block (computed from state), then streams the internal model's analysis
 * (without any arena block of its own);
 * if the model fails, a deterministic synthesis (topic, winner, votes, summary) takes its place.
 */
export function makeDebateSynthesizer(deps: NodeDeps) {
  return async function debateSynthesizer(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    const convergence = state.debate_results!;
    const topic = state.debate_topic ?? "";
    const names = new Map(state.debate_participants.map((p) => [p.key, p.display]));
    const block = arenaDataBlock(
      arenaData({
        topic: state.asked || topic,
        rounds: ROUNDS.map((r) => ({ round: r.round, type: r.type, order: (state.debate_round_order[r.round] ?? []).map((k) => names.get(k)!) })),
        participants: state.debate_participants,
        convergence,
        ballots: state.debate_votes,
      }),
    );
    emit(config, "text_delta", { delta: block });

    const coalescer = new DeltaCoalescer((delta) => emit(config, "text_delta", { delta }), ctx.coalesceMs);
    // Only the computed block may reach clients: a block the model writes itself is removed.
    const filter = new ArenaBlockFilter();
    let body = "";
    const add = (text: string) => {
      body += text;
      coalescer.push(text);
    };
    try {
      const instructions = ctx.prompts.render("debate.analysis.system", {
        topic,
        winner: winnerWords(topic, convergence.winner),
        vote_counts: JSON.stringify(convergence.vote_counts),
        summary: convergence.analysis?.merged_summary ?? "",
      });
      const answer = await withTimeout(ctx.run.responseTimeoutMs, config.signal, (signal) => {
        const model = deps.models.create({ phase: "synthesis", topic, maxTokens: answerTokens(ctx.run, "debatt") * 2, reasoning: ctx.run.reasoning });
        const transcript = buildTranscript(topic, state.debate_round_responses);
        // The transcript first, as the convergence analysis sent it (a cached prefix), the instructions last.
        return streamText(model, [new HumanMessage(transcript), new HumanMessage(instructions)], signal, (d) => add(filter.push(d)));
      });
      add(filter.end());
      // The synthesis kept is the model's answer alone: a thinking block only its end tag gave
      // away (a chat template that opened it) has streamed already, but is not kept.
      const whole = new ArenaBlockFilter();
      body = whole.push(answer) + whole.end();
      if (body.trim() === "") throw new Error("the model returned an empty synthesis");
    } catch (err) {
      rethrowIfCancelled(err);
      ctx.log(`synthesis model failed, using the fallback synthesis: ${(err as Error).message}`);
      coalescer.flush();
      // Text already streamed stays on screen; the fallback follows it as a complete result.
      body = withoutOpenedThinking(body);
      add((body ? "\n\n" : "") + fallbackSynthesis(topic, convergence));
    } finally {
      coalescer.flush();
    }
    const synthesis = block + body;
    emit(config, "debate_synthesis_complete", {
      winner: convergence.winner,
      vote_counts: convergence.vote_counts,
      synthesis_length: synthesis.length,
    });
    return { debate_synthesis: synthesis, debate_status: "complete" };
  };
}
