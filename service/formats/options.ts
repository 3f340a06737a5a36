import { z } from "zod";

/** A deliberation's per-call timeout in ms, up to `max` (10 s at least). */
export const timeoutMs = (max: number) => z.number().int().min(10_000).max(max).optional().describe("Per-call timeout in ms");
