import { Annotation, END, MemorySaver, Send, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { isVoterTask, parallelCalls } from "../graph/tasks.js";

/** A voter's task, as the voting nodes take them. */
interface Task {
  voter: string;
}

const State = Annotation.Root({
  voters: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
  ballots: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
type S = typeof State.State;

/** A graph whose `votes` node makes a call per voter; `legacy`: the router sends each voter's task, as before the votes were one node. */
function graph(asked: string[], legacy = false) {
  const vote = async (task: Task, config: LangGraphRunnableConfig) => {
    asked.push(task.voter);
    config.writer?.({ event: "voted", voter: task.voter });
    return { ballots: [`${task.voter}'s ballot`] };
  };
  const votes = parallelCalls<S, Task, { ballots: string[] }>("votes", vote, (s) => s.voters.map((voter) => ({ voter })), isVoterTask);
  return new StateGraph(State)
    .addNode("start", async () => ({}))
    .addNode("votes", votes as (state: S, config: LangGraphRunnableConfig) => Promise<Partial<S>>)
    .addEdge(START, "start")
    .addConditionalEdges("start", (s: S) => (legacy ? s.voters.map((voter) => new Send("votes", { voter })) : "votes"), ["votes"])
    .addEdge("votes", END)
    .compile({ checkpointer: new MemorySaver() });
}

describe("parallelCalls: a node that makes a call per task, each a LangGraph task", () => {
  it("merges the calls' updates in the order of the tasks; their events come from the node", async () => {
    const asked: string[] = [];
    const chunks: unknown[][] = [];
    const stream = await graph(asked).stream(
      { voters: ["A", "B", "C"] },
      { streamMode: ["custom", "updates", "values"], subgraphs: true, configurable: { thread_id: "t1" } },
    );
    for await (const chunk of stream) chunks.push(chunk as unknown[]);
    expect(asked.sort()).toEqual(["A", "B", "C"]);
    const last = chunks.filter(([, mode]) => mode === "values").at(-1)![2] as S;
    expect(last.ballots).toEqual(["A's ballot", "B's ballot", "C's ballot"]);
    // The events carry the node's namespace (the top graph's: none), as a Send task's did.
    const events = chunks.filter(([, mode]) => mode === "custom");
    expect(events.map(([ns]) => ns)).toEqual([[], [], []]);
    // Only the node's update is a state update; each call reports its result as [key, values] pairs.
    const updates = chunks.filter(([, mode]) => mode === "updates").map(([, , u]) => u as Record<string, unknown>);
    expect(updates.find((u) => "votes" in u)).toEqual({ votes: { ballots: ["A's ballot", "B's ballot", "C's ballot"] } });
    expect(updates.filter((u) => "votes_call" in u).map((u) => u.votes_call)).toContainEqual([["ballots", ["B's ballot"]]]);
  });

  it("runs a voter's task given as its input (a Send pending in a checkpoint of the earlier design) as that one call", async () => {
    const asked: string[] = [];
    const state = await graph(asked, true).invoke({ voters: ["A", "B"] }, { configurable: { thread_id: "t2" } });
    expect(asked.sort()).toEqual(["A", "B"]);
    expect([...state.ballots].sort()).toEqual(["A's ballot", "B's ballot"]);
  });
});
