import { formatOfRun, type ArenaState } from "./arena-state.js";
import type { Reason } from "../state/errors.js";
import type { StoredMessage } from "./api-client.js";
import { viewOf } from "./formats/index.js";
import type { VoicePlayer, VoiceView } from "./voice-player.js";

/** One entry of the session's history. */
export interface Message {
  id: number;
  role: "user" | "assistant";
  text: string;
  arena?: ArenaState;
  /** Why the stream failed, translated when shown (the reader may switch language). */
  failure?: { code: string; detail: string; reason?: Reason };
  running?: boolean;
  /** /dvoice: the player of this debate's audio and what it shows. */
  player?: VoicePlayer;
  voice?: VoiceView;
  /** An answer loaded from the history: its text is shown as it was stored. */
  stored?: StoredMessage;
  /** The run's id (from the stream's first event), to stop it with. */
  runId?: string;
  /** The conversation (thread) it belongs to, for its export and share menu. */
  thread?: string;
}

/** The participant of a finished run the messages go to, and the run's conversation. */
export interface TalkingTo {
  runId: string;
  thread: string;
  key: string;
  display: string;
}

/** The participants of a run, as its view has them (any format). */
export function runParticipants(a: ArenaState): { key: string; display: string }[] {
  const format = formatOfRun(a);
  return format ? viewOf(format).participants(a) : a.participants;
}
