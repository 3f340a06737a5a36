/** A row of `deliberation_stages` (`seq` orders rows within a stage). */
export interface StageRow {
  id: string;
  messageId: string;
  stageType: string;
  stageOrder: number;
  seq: number;
  model: string | null;
  role: string | null;
  content: string;
  parsedData: unknown;
  responseTimeMs: number | null;
  createdAt: Date;
}

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
