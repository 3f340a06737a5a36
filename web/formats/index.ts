import { FORMATS, type FormatId } from "../../state/formats.js";
import type { AdminGroup, FormatView } from "./format-view.js";
import { COMPARE_VIEW } from "./compare.js";
import { COUNCIL_VIEW } from "./council.js";
import { DEBATT_VIEW } from "./debatt.js";
import { DEEP_VIEW } from "./deep.js";
import { DVOICE_VIEW } from "./dvoice.js";
import { MOA_VIEW } from "./moa.js";
import { RANK_VIEW } from "./rank.js";
import { REVISE_VIEW } from "./revise.js";
import { VOTE_VIEW } from "./vote.js";

export type { AdminGroup, FormatView, RunParticipant, RunViewProps, StoredRun } from "./format-view.js";

/**
 * Every format's page view, by format id: its history label, admin group, composer hint, stored
 * replay and run view (each in `web/formats/<format>`). Typed by `FORMATS`' ids, so a format
 * without a view (or a view without a format) is a compile error; the page lists no format by hand.
 */
export const FORMAT_VIEWS = {
  debatt: DEBATT_VIEW,
  dvoice: DVOICE_VIEW,
  compare: COMPARE_VIEW,
  vote: VOTE_VIEW,
  revise: REVISE_VIEW,
  deep: DEEP_VIEW,
  council: COUNCIL_VIEW,
  rank: RANK_VIEW,
  moa: MOA_VIEW,
} satisfies Record<FormatId, FormatView>;

/** The view of a format, typed as any format's (the table's entries keep their own literal types). */
export const viewOf = (format: FormatId): FormatView => FORMAT_VIEWS[format];

/**
 * The admin page's prompt groups, in the table's order: each format's (/debatt and /dvoice share
 * one), then the prompts the deliberation formats share. Any other prompt is in `other`.
 */
export const ADMIN_GROUPS: readonly AdminGroup[] = [...new Set(Object.values(FORMAT_VIEWS).map((v: FormatView) => v.adminGroup)), "deliberation"];

/** A format's command as the composer's hint writes it, `what` being the word for what it takes: `/council [--debate] <claim>`. */
export const commandHint = (format: FormatId, what: string) => `${FORMATS[format].command} ${viewOf(format).hintOptions ?? ""}<${what}>`;
