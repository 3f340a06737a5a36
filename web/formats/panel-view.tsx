import type { FunctionComponent } from "preact";
import { SimulatedNote } from "../arena.js";
import type { ArenaState } from "../arena-state.js";
import type { FormatView, PanelRun, RunPanel, RunParticipant } from "./format-view.js";

/** What a panel format's own view is drawn from: its run's state, whether the run ended, what it cost. */
export interface PanelViewProps<S> {
  s: S;
  ended: boolean;
  usage?: ArenaState["usage"];
}

/**
 * The pieces of a format's view that follow from its keeping its own state (`ArenaState.panel`):
 * the panel, who takes part (read from its state) and the run's view (the simulated note, then its
 * own view), both empty while the arena holds another format's run.
 */
export function panelView<S extends PanelRun>(
  panel: RunPanel<S>,
  participants: (s: S) => RunParticipant[],
  View: FunctionComponent<PanelViewProps<S>>,
): Pick<FormatView, "participants" | "View"> & { panel: RunPanel<S> } {
  // The arena's panel is this format's state when its kind is this format's.
  const own = (a: ArenaState): S | undefined => {
    const run: PanelRun | undefined = a.panel;
    return run?.kind === panel.kind ? (run as S) : undefined;
  };
  return {
    panel,
    participants: (a) => {
      const s = own(a);
      return s ? participants(s) : [];
    },
    View: ({ a }) => {
      const s = own(a);
      return s ? (
        <>
          {a.simulated && <SimulatedNote />}
          <View s={s} ended={a.done} usage={a.usage} />
        </>
      ) : null;
    },
  };
}
