import { describe, expect, it } from "vitest";
import { strictEventSchema } from "../state/events.js";
import { answerOf, withOverrides } from "./support/fake-model.js";
import { graphOf, named, runEvents, testDeps } from "./support/harness.js";
import { streamClientEvents } from "../service/stream.js";

const NAMES = ["Grok", "Claude", "ChatGPT", "Gemini", "DeepSeek", "Perplexity", "Qwen", "OneSeek"];

describe("a full 8-participant debate", () => {
  it("emits every event in order with exactly the contract's payload fields", async () => {
    // Arrange
    const { deps, models } = testDeps();
    // Act
    const events = await runEvents(deps, "/debatt Bör AI regleras?", { configurable: { seed: 42 } });
    // Assert: every payload parses with its schema and has no extra field.
    for (const e of events.filter((x) => x.event !== "done")) {
      const schema = strictEventSchema(e.event);
      expect(schema, e.event).toBeDefined();
      const parsed = schema!.safeParse(e.data);
      expect(parsed.success, `${e.event}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    // The sequence: init, 3 rounds of start/8×(start, delta…, end)/end, vote round, results, synthesis, done.
    const skeleton = events.map((e) => e.event).filter((n) => n !== "debate-participant-delta" && n !== "text-delta");
    const turns = () => ["debate-round-start", ...Array(8).fill(["debate-participant-start", "debate-participant-end"]).flat(), "debate-round-end"];
    expect(skeleton).toEqual([
      "debate-init",
      ...turns(),
      ...turns(),
      ...turns(),
      "debate-round-start",
      ...Array(8).fill("debate-vote-result"),
      "debate-round-end",
      "debate-results",
      "debate-synthesis-complete",
      "done",
    ]);
    const init = named(events, "debate-init")[0];
    expect(init.participants.map((p: any) => p.display)).toEqual(NAMES);
    expect(init).toMatchObject({ topic: "Bör AI regleras?", total_rounds: 4, voice_mode: false, simulated: false });
    expect(named(events, "debate-round-start").map((r) => r.type)).toEqual(["introduction", "argument", "deepening", "voting"]);
    // Every participant spoke once per round, tokens streamed before its end event.
    for (const round of [1, 2, 3]) {
      const ends = named(events, "debate-participant-end").filter((e) => e.round === round);
      expect(ends.map((e) => e.model).sort()).toEqual([...NAMES].sort());
      expect(ends.map((e) => e.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(ends.every((e) => e.status === "ok" && e.word_count > 0)).toBe(true);
    }
    const deltas = named(events, "debate-participant-delta").filter((d) => d.model_key === "call_grok" && d.round === 2);
    expect(deltas.map((d) => d.delta).join("")).toBe(answerOf("Grok", 2));
    // The default script votes for the first other candidate: Grok gets 7, Claude 1 (Grok's vote).
    const results = named(events, "debate-results")[0];
    expect(results).toMatchObject({ winner: "Grok", total_votes: 8, tiebreaker_used: false, tiebreaker: "none", self_votes_filtered: 0, invalid_votes: 0 });
    expect(results.vote_counts).toMatchObject({ Grok: 7, Claude: 1, Qwen: 0 });
    // The synthesis starts with the arena block, computed from state.
    const synthesis = named(events, "text-delta")
      .map((d) => d.delta)
      .join("");
    expect(synthesis.startsWith("```debate-arena-data\n")).toBe(true);
    const block = JSON.parse(synthesis.slice(synthesis.indexOf("\n") + 1, synthesis.indexOf("\n```")));
    expect(block.debate_analysis).toMatchObject({ topic: "Bör AI regleras?", winner: "Grok", votes: results.vote_counts, consensus: ["rules matter"] });
    expect(synthesis).toContain("A fine debate.");
    expect(named(events, "debate-synthesis-complete")[0]).toMatchObject({ winner: "Grok", synthesis_length: synthesis.length });
    expect(models.callsOf("turn")).toHaveLength(24);
    expect(models.callsOf("vote")).toHaveLength(8);
  });

  it("shuffles each round afresh, deterministically for a seed", async () => {
    const orders = async (seed: number) => {
      const { deps } = testDeps();
      const events = await runEvents(deps, "/debatt X", { configurable: { seed } });
      return named(events, "debate-round-start")
        .slice(0, 3)
        .map((r) => r.order.join(","));
    };
    const a = await orders(7);
    expect(await orders(7)).toEqual(a);
    expect(new Set(a).size).toBeGreaterThan(1);
    expect(await orders(8)).not.toEqual(a);
  });

  it("gives each speaker its debate as one conversation: per round what it had not seen yet, then the round's instruction; every answer truncated", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/debatt Topic", { configurable: { seed: 3, context_chars: 60 } });
    const order = (round: number) => named(events, "debate-round-start")[round - 1].order as string[];
    const lastKey = named(events, "debate-participant-end")
      .filter((e) => e.round === 3)
      .at(-1)!.model_key;
    const lastName = order(3).at(-1)!;
    const last = models.callsOf("turn", lastKey).find((c) => c.round === 3)!;
    // The system prompt, then one user message per round.
    expect(last.messages.map((m) => m._getType())).toEqual(["system", "human", "human", "human"]);
    const shown = last.messages
      .slice(1)
      .map((m) => String(m.content))
      .join("\n");
    expect(shown.startsWith("Debattämne: Topic")).toBe(true);
    // Every answer given before its turn, its own too, once, cut to 60 characters: all of rounds 1 and 2, round 3 before it.
    for (const round of [1, 2, 3]) {
      for (const name of NAMES) {
        const seen = round < 3 || order(3).indexOf(name) < order(3).indexOf(lastName);
        expect(shown.split(`[${name}]: ${answerOf(name, round).slice(0, 60)}…`).length - 1, `${name} round ${round}`).toBe(seen ? 1 : 0);
      }
    }
    expect(String(last.messages[3].content)).toContain("Runda 3 — Fördjupning");
    // The first speaker of round 1 sees only the topic.
    const firstKey = named(events, "debate-participant-start")[0].model_key;
    const first = models.callsOf("turn", firstKey).find((c) => c.round === 1)!;
    expect(String(first.messages[1].content)).not.toContain("--- Runda 1 ---");
  });

  it.each(["sequential", "simultaneous"])(
    "lays out a participant's calls (%s) so that each begins with the one before, unchanged: a provider's cached prefix",
    async (order) => {
      const { deps, models } = testDeps();
      await runEvents(deps, "/debatt Topic", { configurable: { seed: 5, order } });
      const serialized = (messages: { _getType(): string; content: unknown }[]) => messages.map((m) => `${m._getType()}:${String(m.content)}`);
      for (const key of ["call_grok", "call_qwen", "call_oneseek"]) {
        const calls = [...models.callsOf("turn", key).sort((a, b) => a.round! - b.round!), ...models.callsOf("vote", key)];
        expect(calls).toHaveLength(4);
        for (let k = 1; k < calls.length; k++) {
          const before = serialized(calls[k - 1].messages);
          const now = serialized(calls[k].messages);
          expect(now.slice(0, before.length), `${key}: call ${k + 1}`).toEqual(before);
          expect(now).toHaveLength(before.length + 1);
        }
      }
    },
  );

  it("runs a requested subset of participants", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/debatt X", { participants: ["call_grok", "Claude", "oneseek"] });
    expect(named(events, "debate-init")[0].participants.map((p: any) => p.key)).toEqual(["call_grok", "call_claude", "call_oneseek"]);
    expect(models.callsOf("turn")).toHaveLength(9);
    expect(events.at(-1)!.event).toBe("done");
  });

  it("answers an unknown participant with an error naming it, before any debate", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/debatt X", { participants: ["call_grok", "hal9000"] });
    expect(named(events, "error")[0]).toMatchObject({ code: "invalid_participants" });
    expect(named(events, "error")[0].message).toContain("hal9000");
    expect(models.calls).toHaveLength(0);
  });

  it("sets voice mode for /dvoice", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "  /DVOICE Är klimatet människopåverkat?", { participants: ["call_grok", "call_claude"] });
    expect(named(events, "debate-init")[0]).toMatchObject({ voice_mode: true, topic: "Är klimatet människopåverkat?" });
  });
});

describe("a simultaneous debate (--order simultaneous)", () => {
  it("asks every participant of a round at once, each seeing the earlier rounds and none of this one, and otherwise runs as a debate", async () => {
    const { deps, models } = testDeps({
      script: withOverrides((req) => (req.phase === "turn" ? { text: answerOf(req.participant!.display, req.round ?? 1), latencyMs: 20 } : undefined)),
    });
    const events = await runEvents(deps, "/debatt --order simultaneous Bör AI regleras?", { configurable: { seed: 4 } });
    for (const e of events.filter((x) => x.event !== "done")) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
    const init = named(events, "debate-init")[0];
    expect(init).toMatchObject({ topic: "Bör AI regleras?", order: "simultaneous" });
    for (const round of [1, 2, 3]) {
      const inRound = events.filter((e) => e.event.startsWith("debate-participant-") && (e.data as { round: number }).round === round);
      // All eight start before the first ends: they answer at once.
      const firstEnd = inRound.findIndex((e) => e.event === "debate-participant-end");
      expect(inRound.slice(0, firstEnd).filter((e) => e.event === "debate-participant-start")).toHaveLength(8);
      expect(inRound.filter((e) => e.event === "debate-participant-end").every((e) => (e.data as { status: string }).status === "ok")).toBe(true);
      // Each saw the earlier rounds (round 1: only the topic) and nothing of this one.
      for (const call of models.callsOf("turn").filter((c) => c.round === round)) {
        const shown = call.messages
          .filter((m) => m._getType() === "human")
          .map((m) => String(m.content))
          .join("\n");
        for (let earlier = 1; earlier < round; earlier++) expect(shown).toContain(`--- Runda ${earlier} ---`);
        expect(shown).not.toContain(`--- Runda ${round} ---`);
      }
    }
    // The rest is the debate's: 24 turns, the vote, the results with each speaker's words, the synthesis.
    expect(models.callsOf("turn")).toHaveLength(24);
    expect(models.callsOf("vote")).toHaveLength(8);
    const results = named(events, "debate-results")[0];
    const words = (name: string) => [1, 2, 3].reduce((n, r) => n + answerOf(name, r).split(/\s+/).filter(Boolean).length, 0);
    for (const name of NAMES) expect(results.word_counts[name]).toBe(words(name));
    expect(named(events, "debate-round-end").map((r) => r.round)).toEqual([1, 2, 3, 4]);
    expect(events.at(-2)!.event).toBe("debate-synthesis-complete");
  });

  it("is also set by the run configuration's order, and a message's --order wins over it", async () => {
    const order = async (message: string, configured?: string) => {
      const { deps } = testDeps();
      const events = await runEvents(deps, message, { configurable: configured ? { order: configured } : {}, participants: ["call_grok", "call_claude"] });
      return named(events, "debate-init")[0].order;
    };
    expect(await order("/debatt X")).toBe("sequential");
    expect(await order("/debatt X", "simultaneous")).toBe("simultaneous");
    expect(await order("/debatt --order sequential X", "simultaneous")).toBe("sequential");
    expect(await order("/dvoice --order simultaneous X")).toBe("simultaneous");
  });

  it("goes on when a turn fails, and stops with too_few_answers when fewer than two answered a round", async () => {
    const failing = (who: string[]) =>
      withOverrides((req) => (req.phase === "turn" && who.includes(req.participant!.key) ? { error: new Error("boom") } : undefined));
    const { deps } = testDeps({ script: failing(["call_grok"]) });
    const events = await runEvents(deps, "/debatt --order simultaneous X", { participants: ["call_grok", "call_claude", "call_gpt"] });
    expect(named(events, "debate-participant-end").filter((e) => e.status === "error")).toHaveLength(3);
    expect(named(events, "debate-results")).toHaveLength(1);
    const few = testDeps({ script: failing(["call_grok", "call_claude"]) });
    const stopped = await runEvents(few.deps, "/debatt --order simultaneous X", { participants: ["call_grok", "call_claude", "call_gpt"] });
    expect(named(stopped, "error")[0]).toMatchObject({ code: "too_few_answers" });
    expect(named(stopped, "debate-round-start")).toHaveLength(1);
  });
});

describe("the stream of a run", () => {
  it("says when the graph ran to its end, before `done`, and not when it was stopped (a stop after that stops nothing)", async () => {
    const { deps } = testDeps();
    const graph = graphOf(deps);
    const participants = ["call_grok", "call_claude", "call_gpt"];
    const ran: string[] = [];
    for await (const e of streamClientEvents(graph, { message: "/compare Tabs?", participants }, { onFinished: () => ran.push("finished") })) ran.push(e.event);
    expect(ran.slice(-2)).toEqual(["finished", "done"]);

    const controller = new AbortController();
    const stopped: string[] = [];
    for await (const e of streamClientEvents(
      graph,
      { message: "/compare Tabs?", participants },
      { signal: controller.signal, onFinished: () => stopped.push("finished") },
    )) {
      stopped.push(e.event);
      if (e.event === "compare-start") controller.abort();
    }
    expect(stopped).not.toContain("finished");
    expect(stopped.at(-1)).toBe("done");
  });
});
