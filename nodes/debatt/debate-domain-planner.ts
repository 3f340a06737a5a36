import { DebattError, refusalOf } from "../../state/errors.js";
import { randomUUID } from "node:crypto";
import { Overwrite, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "../../ports/emit.js";
import type { NodeDeps } from "../../ports/node-deps.js";
import { ROUNDS, TOTAL_ROUNDS } from "../../state/debate.js";
import type { VoicePacing } from "../../state/formats.js";
import { pacingOf, spokenPartOf, spokenWordLimits, voiceSettingsOr } from "../../state/voice.js";
import type { State, StateUpdate } from "../../state/graph-state.js";
import { participantsFor } from "../../state/participants.js";
import { DEFAULT_PERSON_NAME, isPerson, withPerson } from "../../state/person.js";
import { estimateRun } from "../../state/estimate.js";
import { estimateInputsOf } from "../shared/estimate-inputs.js";

/**
 * debate_domain_planner: deterministic (no model call). Picks the debaters (the roster, or the
 * requested subset), fixes the debate id and the shuffle seed, resets the debate state of the
 * thread and announces the debate with `debate_init`.
 */
export function makeDebateDomainPlanner(deps: NodeDeps) {
  return async function debateDomainPlanner(state: State, config: LangGraphRunnableConfig): Promise<StateUpdate> {
    const ctx = await deps.context(config);
    let participants;
    try {
      participants = participantsFor("debatt", deps.roster, state.participants);
      // --with-me: the person takes a seat under the name they chose (not in /dvoice: their turn would have no voice).
      if (state.options.withMe && state.voice_mode)
        throw new DebattError("unknown_option", "/dvoice cannot be joined (with_me): a person's turn has no voice; join a /debatt instead");
      if (state.options.withMe) participants = withPerson(participants, state.options.personName ?? DEFAULT_PERSON_NAME);
    } catch (err) {
      const refusal = refusalOf(err);
      emit(config, "error", refusal);
      return { debate_status: "error", debate_error: refusal.message };
    }
    // The run's id (the service's, so the debate is addressed by the id its stream announced).
    const debateId = state.run_id ?? randomUUID();
    const topic = state.debate_topic ?? "";
    const spoken = state.voice_mode ? await spokenDebate(deps, state.options.voicePacing, ctx.log) : undefined;
    const wordLimits = spoken?.wordLimits ?? ROUNDS.map((r) => r.words);
    emit(config, "debate_init", {
      participants: participants.map((p) => ({
        key: p.key,
        display: p.display,
        model: p.model,
        oneseek: p.oneseek === true,
        ...(isPerson(p) ? { person: true as const } : {}),
      })),
      // The topic as typed; the models read the material that came with it too.
      topic: state.asked || topic,
      total_rounds: TOTAL_ROUNDS,
      voice_mode: state.voice_mode,
      debate_id: debateId,
      simulated: deps.models.simulated,
      order: state.options.order,
      ...(spoken ? { voice_pacing: spoken.paced ? "paced" : "off", word_limits: wordLimits } : {}),
      // The person's seat costs nothing.
      estimate: estimateRun(
        state.voice_mode ? "dvoice" : "debatt",
        participants.filter((p) => !isPerson(p)),
        { ...estimateInputsOf(topic, ctx.run, deps), wordLimits },
        deps.prices,
      ),
    });
    return {
      debate_id: debateId,
      debate_seed: ctx.run.seed ?? Math.floor(Math.random() * 2 ** 31),
      debate_participants: participants,
      debate_topic: topic,
      debate_current_round: 1,
      debate_round_order: {},
      debate_turn_index: 0,
      debate_round_responses: new Overwrite({}),
      debate_turns: new Overwrite([]),
      debate_votes: new Overwrite([]),
      debate_word_counts: Object.fromEntries(participants.map((p) => [p.display, 0])),
      debate_status: "initializing",
      debate_context_chars: ctx.run.contextChars,
      debate_word_limits: wordLimits,
      debate_voice_paced: spoken?.paced ?? false,
      debate_vote_deadline: null,
      debate_results: null,
      debate_synthesis: null,
      debate_error: null,
    };
  };
}

/**
 * A spoken debate's pacing and word limits, from the admins' voice settings (the defaults when
 * they cannot be read); the run's pacing, when it sets one, wins over the settings', and without
 * either the voice's way of speaking decides (`pacingOf`).
 */
async function spokenDebate(
  deps: NodeDeps,
  runPacing: VoicePacing | undefined,
  log: (line: string) => void,
): Promise<{ paced: boolean; wordLimits: number[] }> {
  const settings = await voiceSettingsOr(deps.voice && (() => deps.voice!.settings()), log);
  const part = spokenPartOf(settings, deps.voice?.speech(settings).speaks);
  return { paced: pacingOf(runPacing, settings, part) === "paced", wordLimits: spokenWordLimits(settings) };
}
