import type { Ballot } from "../state/leaderboard/ballots.js";
import type { FormatId } from "../state/formats.js";
import type { Rows, RunFacts } from "./row-kit.js";
import type { RunStage, StageRow } from "./stage.js";

/**
 * How one format is kept in the history: the rows its runs write (`deliberation_stages`, computed
 * from the state its run left) and how they are read back. Each format's codec is in
 * `history/formats/<format>.ts`; its definition (`service/formats.ts`) names it, and the store is
 * opened with all of them, so this layer lists no format by hand.
 */
export interface HistoryCodec {
  /**
   * Every stage type its rows have; the first is the row that opens a run and names its
   * participants (its panel). A run's format is read back from its rows' types.
   */
  stageTypes: readonly string[];
  /** Tells two formats that share their rows apart (/debatt and /dvoice) by the panel's data; absent when its rows are its own. */
  ownsPanel?: (panel: Record<string, unknown>) => boolean;
  /** Adds the rows of the state its run left: the top graph's for /debatt, its subgraph's otherwise. */
  rows(state: never, rows: Rows, facts: RunFacts): void;
  /** Its result, read back from a run's rows (also of a run still going or stopped early: what has not landed is absent). */
  result(stages: StageRow[]): unknown;
  /**
   * A run stopped in the middle of one of its parallel steps beyond its first answers (which every
   * deliberation format keeps alike): the `answer_delta` stages of that step, and its state with the
   * answers that were cut added, each as far as it had streamed; `closedBy`, the events that say
   * such a step is over (what streamed before them is in the state). Absent when the format has none.
   */
  cut?: { stages: readonly string[]; closedBy: readonly string[]; add(state: never, cut: CutAnswer[]): Record<string, unknown> };
  /** The leaderboard's ballots of one run's rows, and the stage types they are read from; null when the format gives none. */
  ballots: { stageTypes: readonly string[]; of(rows: RunStage[], panel: Record<string, unknown>, simulated: boolean): Ballot[] } | null;
}

/** An answer a stopped run cut off: whose, in which stage, and what it had streamed. */
export interface CutAnswer {
  stage: string;
  key: string;
  display: string;
  model: string;
  text: string;
}

/** Every format's codec, by format id: what the history store is opened with. */
export type HistoryFormats = Record<FormatId, HistoryCodec>;
