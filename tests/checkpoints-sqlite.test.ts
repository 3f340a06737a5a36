import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { openCheckpoints } from "../providers/checkpointer.js";
import type { WriteBehindSaver } from "../providers/write-behind-saver.js";

describe("the SQLite checkpoints", () => {
  it("prepares each statement once and reuses it, every thread's steps saved and read back", async () => {
    const checkpoints = await openCheckpoints({ dataDir: mkdtempSync(join(tmpdir(), "debatt-checkpoints-")) }, () => {});
    try {
      const db = (checkpoints.saver as WriteBehindSaver as unknown as { inner: { db: { prepare(sql: string): unknown } } }).inner.db;
      const State = Annotation.Root({ n: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }) });
      const graph = new StateGraph(State)
        .addNode("add", () => ({ n: 1 }))
        .addNode("again", () => ({ n: 10 }))
        .addEdge(START, "add")
        .addEdge("add", "again")
        .addEdge("again", END)
        .compile({ checkpointer: checkpoints.saver });
      for (const thread of ["a", "b", "c"]) await graph.invoke({ n: 100 }, { configurable: { thread_id: thread } });
      for (const thread of ["a", "b", "c"]) expect((await graph.getState({ configurable: { thread_id: thread } })).values.n).toBe(111);
      const history = [];
      for await (const s of graph.getStateHistory({ configurable: { thread_id: "b" } })) history.push(s.values.n);
      expect(history).toEqual([111, 101, 100, 0]);
      const sql = "SELECT count(*) AS n FROM checkpoints";
      expect(db.prepare(sql)).toBe(db.prepare(sql));
    } finally {
      await checkpoints.close();
    }
  });
});
