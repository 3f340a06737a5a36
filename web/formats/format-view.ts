import type { FunctionComponent } from "preact";
import type { ClientEvent } from "../../state/events.js";
import type { FormatId } from "../../state/formats.js";
import type { MessageKey } from "../../state/messages/index.js";
import type { PersonInput } from "../../state/person.js";
import type { ArenaState } from "../arena-state.js";
import type { VoicePlayer, VoiceView } from "../voice-player.js";

/**
 * What a format's page view is made of (`FormatView`), in a module of its own so that the format
 * modules and the table in `index.ts` can both name it without importing each other.
 */

/** The group a message key names, if it is an `admin.group.*` key (distributed over a union of keys). */
type GroupOf<K> = K extends `admin.group.${infer G}` ? G : never;

/** A prompt group of the admin page: the first part of its prompts' keys, named by its `admin.group.*` text. */
export type AdminGroup = GroupOf<MessageKey>;

/** A run read back from the history (`GET /api/v1/conversations/:id`), to replay. */
export interface StoredRun {
  /** The stored answer's id (a debate's id too). */
  id: string;
  /** Its result as the format's history codec wrote it (JSON: its type is declared by the format's module). */
  result: unknown;
  /** The question (topic, claim) it answered, without its command and options. */
  question: string;
  /** The conversation's title, given with its first run (the run that made it). */
  title?: string;
  /** Whether the run was stopped (`cancelled`): a replay then shows where it stopped, as the live view did. */
  stopped?: boolean;
}

/** What a format's view of a run is drawn from: the run's state and what the answer around it holds. */
export interface RunViewProps {
  a: ArenaState;
  /** /dvoice, live: the player of its audio and what it shows. */
  player?: VoicePlayer;
  voice?: VoiceView;
  /** The run was read back from the history on a page that asks a server (not an export): its stored audio can be played. */
  storedAudio: boolean;
  /** Sends the person's turn or vote to a debate they joined; undefined when nothing can be sent. */
  send?: (input: PersonInput) => Promise<void>;
}

/** A participant as the run menu lists it (to talk to one after the run). */
export interface RunParticipant {
  key: string;
  display: string;
}

/** A participant as a panel's run state keeps it. */
export interface Member extends RunParticipant {
  model: string;
}

/** A payload's participant (`modelKey`) as a panel's run state keeps it (`key`). */
export const memberOf = (p: { modelKey: string; display: string; model: string }): Member => ({ key: p.modelKey, display: p.display, model: p.model });

/** What every panel's run state has: its format, its title once given, and whether it completed. */
export interface PanelRun {
  kind: FormatId;
  title?: string;
  complete: boolean;
}

/**
 * How the page follows the run of a format that keeps its own state (`ArenaState.panel`): its
 * start event begins the state, its other events update it.
 */
export interface RunPanel<S extends PanelRun> {
  kind: S["kind"];
  /** The run state its start event begins; undefined for any other event. */
  start(e: ClientEvent): S | undefined;
  /** Applies one of its events (the title and completion are applied for every panel alike); anything else leaves it as it is (the same object). */
  reduce(s: S, e: ClientEvent): S;
}

/**
 * Everything the page needs of one format. Every piece is required; a piece the format has no use
 * for is `null`, so that adding a piece makes the compiler ask each format for it.
 */
export interface FormatView {
  /** How the history list names its conversations: its command (`/revise`). */
  label: string;
  /** The admin page's group its prompts are listed in (/debatt and /dvoice share theirs). */
  adminGroup: AdminGroup;
  /** Whether its runs are spoken: the page makes each an audio player as it is sent (browsers let only a user action start audio). */
  spoken: boolean;
  /** The options the composer's hint shows between its command and what it takes (`[--debate] `); null when it shows none. */
  hintOptions: string | null;
  /**
   * The events a stored run of it streamed (without the stream's `done`), for the same reducers
   * to rebuild the view it showed live; undefined when the result holds nothing to show.
   */
  replay: (run: StoredRun) => ClientEvent[] | undefined;
  /** How its run's state is kept when the format keeps its own (`ArenaState.panel`); null when the arena's shared state holds it. */
  panel: RunPanel<PanelRun> | null;
  /** Who takes part in a run of it, as its state has them. */
  participants: (a: ArenaState) => RunParticipant[];
  /** Its run's view, drawn from the run's state. */
  View: FunctionComponent<RunViewProps>;
}
