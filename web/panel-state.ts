import type { ClientEvent } from "../state/events.js";
import type { FormatId } from "../state/formats.js";
import { FORMAT_VIEWS } from "./formats/index.js";
import type { PanelRun, RunPanel } from "./formats/format-view.js";

/**
 * The runs of the formats that keep their own state (a `panel` in their page view: /deep, /council,
 * /rank, …), each followed by its own reducer. Nothing here names a format: the views' table does.
 */

type PanelOf<V> = V extends { panel: RunPanel<infer S> } ? S : never;

/** A run of any format that keeps its own state; its `kind` says whose. */
export type PanelState = PanelOf<(typeof FORMAT_VIEWS)[FormatId]>;

const PANELS: RunPanel<PanelRun>[] = Object.values(FORMAT_VIEWS).flatMap((v: { panel: RunPanel<PanelRun> | null }) => (v.panel ? [v.panel] : []));

/**
 * Applies one event to a panel run. A format's start event begins its run; its other events
 * update it, the title and completion alike for every format; anything else leaves it as it is
 * (the same object).
 */
export function reducePanel(s: PanelState | undefined, e: ClientEvent): PanelState | undefined {
  for (const panel of PANELS) {
    // A panel's start gives its own format's state (its kind is the panel's).
    const started = panel.start(e) as PanelState | undefined;
    if (started) return started;
  }
  if (!s) return s;
  if (e.event === "title-complete") return { ...s, title: e.data.data.title };
  if (e.event === "complete") return { ...s, complete: true };
  const own = PANELS.find((p) => p.kind === s.kind);
  return own ? (own.reduce(s, e) as PanelState) : s;
}
