import type { State, StateUpdate } from "../../state/graph-state.js";
import type { VoiceRuns } from "./lib/voice-runs.js";

/**
 * debate_voice_pipeline (reached only by /dvoice): the answers were handed to the debate's voice
 * queue as the round executor produced them and have been speaking in the background since; this
 * node waits until the last chunk has been sent, so `done` never comes before the audio; then the
 * debate's recording is closed for export.
 */
export function makeDebateVoicePipeline(voice: VoiceRuns) {
  return async function debateVoicePipeline(state: State): Promise<StateUpdate> {
    await voice.finish(state.debate_id ?? "");
    return {};
  };
}
