import { FORMATS } from "../../state/formats.js";
import type { FormatView } from "./format-view.js";
import { DebateView, debaters, replayDebate } from "./debate.js";

/** /debatt, a written debate: the arena (see `debate.tsx`, which /dvoice shares). */
export const DEBATT_VIEW = {
  label: FORMATS.debatt.command,
  adminGroup: "debate",
  spoken: false,
  hintOptions: "[--order simultaneous] [--with-me] ",
  replay: replayDebate,
  panel: null,
  participants: debaters,
  View: DebateView,
} satisfies FormatView;
