import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../state/events.js";
import { emptyArena, progress, reduce, splitSynthesis, type ArenaState } from "../web/arena-state.js";
import { runEvents, testDeps } from "./support/harness.js";

describe("the arena's state", () => {
  it("is built from a whole debate's events: cards per round, votes, results, synthesis without the data block", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/debatt Bör AI regleras?", { participants: ["call_grok", "call_claude", "call_gpt"] });

    const states = events.map((_, i) => events.slice(0, i + 1).reduce(reduce, emptyArena()));
    const s = states.at(-1)!;

    expect(s.participants.map((p) => p.display)).toEqual(["Grok", "Claude", "ChatGPT"]);
    expect(Object.values(s.cards).every((c) => [1, 2, 3].every((r) => c.rounds[r].status === "ok" && c.rounds[r].text.length > 0))).toBe(true);
    expect(s.cards.call_grok.rounds[2].text).toBe("Grok says in round 2: arguments point point point point point point point point point point point point point point point point point point point point done.");
    expect(s.roundsDone).toEqual([1, 2, 3, 4]);
    expect(s.votes).toHaveLength(3);
    expect(s.results?.winner).toBeDefined();
    expect(s.synthesis).not.toContain("debate-arena-data");
    expect(s.arenaData).toMatchObject({ debate_analysis: expect.any(Object) });
    expect(s.done).toBe(true);
    expect(progress(s)).toBe(100);
    // Progress only ever grows, and a speaker is marked while it speaks.
    const ps = states.map(progress);
    expect(ps.every((p, i) => i === 0 || p >= ps[i - 1])).toBe(true);
    expect(states.some((x) => x.speaking.length === 1 && x.speaking[0] === "Claude")).toBe(true);
    expect(states.every((x) => x.speaking.length <= 1)).toBe(true);
  });

  it("marks every participant writing at once in a simultaneous round, each until its turn ends", () => {
    const who = (model: string) => ({ model, model_key: `call_${model.toLowerCase()}`, round: 1 });
    const events = [
      { event: "debate-init", data: { participants: [{ key: "call_a", display: "A" }, { key: "call_b", display: "B" }], topic: "T", total_rounds: 4, voice_mode: false, debate_id: "d", simulated: false, order: "simultaneous" } },
      { event: "debate-round-start", data: { round: 1, type: "introduction", order: ["A", "B"] } },
      { event: "debate-participant-start", data: { ...who("A"), position: 1 } },
      { event: "debate-participant-start", data: { ...who("B"), position: 2 } },
      { event: "debate-participant-delta", data: { ...who("B"), delta: "b1 " } },
      { event: "debate-participant-delta", data: { ...who("A"), delta: "a1 " } },
      { event: "debate-participant-delta", data: { ...who("B"), delta: "b2" } },
      { event: "debate-participant-end", data: { ...who("B"), position: 2, word_count: 2, latency_ms: 5, response_preview: "", status: "ok" } },
    ] as ClientEvent[];
    const states = events.reduce<ArenaState[]>((all, e) => [...all, reduce(all.at(-1) ?? emptyArena(), e)], []);
    expect(states[3].speaking).toEqual(["A", "B"]);
    const last = states.at(-1)!;
    expect(last.speaking).toEqual(["A"]);
    expect([last.cards.call_a.rounds[1].text, last.cards.call_b.rounds[1].text]).toEqual(["a1 ", "b1 b2"]);
  });

  it("waits for the whole arena-data block before parsing it", () => {
    expect(splitSynthesis("```debate-ar")).toEqual({ markdown: "", pending: true });
    expect(splitSynthesis('```debate-arena-data\n{"a": 1}\n```\n\n## Rubrik')).toEqual({ data: { a: 1 }, markdown: "## Rubrik", pending: false });
    expect(splitSynthesis("## Bara text").markdown).toBe("## Bara text");
  });

  it("keeps a plain chat answer apart from debates, and records errors", () => {
    const s = [
      { event: "text-delta", data: { delta: "Hej " } },
      { event: "text-delta", data: { delta: "där" } },
      { event: "error", data: { message: "boom", code: "model_error" } },
    ].reduce((state, e) => reduce(state, e as ClientEvent), emptyArena());
    expect(s.chat).toBe("Hej där");
    expect(s.error).toEqual({ message: "boom", code: "model_error" });
  });
});
