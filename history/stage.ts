import type { deliberationStages } from "./schema-pg.js";

/** A row of `deliberation_stages` (`seq` orders rows within a stage), as its Drizzle table has it. */
export type StageRow = typeof deliberationStages.$inferSelect;

/** A stage row with when its run started. */
export interface RunStage extends StageRow {
  runAt: Date;
}

/** A stage row before it is written (the store sets `createdAt`). */
export type NewStage = Omit<StageRow, "createdAt">;

/** A stored row's data as an object (empty when it has none). */
export function stageData(row: StageRow | undefined): Record<string, unknown> {
  return row?.parsedData && typeof row.parsedData === "object" ? (row.parsedData as Record<string, unknown>) : {};
}
