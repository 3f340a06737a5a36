import { dvoiceHistory } from "../../history/formats/debatt.js";
import type { FormatDefinition } from "../format-definition.js";
import { debatt } from "./debatt.js";
import { startsDebate } from "./debatt-events.js";

/** /dvoice: the spoken debate, on the same nodes; not served where text alone is read. */
export const dvoice = { ...debatt, history: dvoiceHistory, openaiModel: null, mcp: null, evalArm: null, starts: startsDebate(true) } satisfies FormatDefinition;
