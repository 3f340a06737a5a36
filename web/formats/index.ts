import { FORMATS, type FormatId } from "../../state/formats.js";
import { FORMAT_VIEWS } from "./by-format.gen.js";
import type { AdminGroup, FormatView } from "./format-view.js";

export type { AdminGroup, FormatView, RunParticipant, RunViewProps, StoredRun } from "./format-view.js";

/**
 * Every format's page view, by format id: its history label, admin group, composer hint, stored
 * replay and run view (`web/formats/<format>.tsx`, listed by scripts/format-tables.ts from
 * `FORMATS`). Typed by `FORMATS`' ids, so a view of the wrong shape is a compile error and a
 * missing one is named by the script; the page lists no format by hand.
 */
export { FORMAT_VIEWS };

/** The view of a format, typed as any format's (the table's entries keep their own literal types). */
export const viewOf = (format: FormatId): FormatView => FORMAT_VIEWS[format];

/**
 * The admin page's prompt groups, in the table's order: each format's (/debatt and /dvoice share
 * one), then the prompts the deliberation formats share. Any other prompt is in `other`.
 */
export const ADMIN_GROUPS: readonly AdminGroup[] = [...new Set(Object.values(FORMAT_VIEWS).map((v: FormatView) => v.adminGroup)), "deliberation"];

/** A format's command as the composer's hint writes it, `what` being the word for what it takes: `/council [--debate] <claim>`. */
export const commandHint = (format: FormatId, what: string) => `${FORMATS[format].command} ${viewOf(format).hintOptions ?? ""}<${what}>`;
