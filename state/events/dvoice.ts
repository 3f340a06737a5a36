import { DEBATT_EVENTS } from "./debatt.js";

/** The events of /dvoice: a spoken debate sends /debatt's (its voice events are among them). */
export const DVOICE_EVENTS = DEBATT_EVENTS;
