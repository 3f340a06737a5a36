import { isDeepStrictEqual as isEqual } from "node:util";
import { describe, expect, it } from "vitest";
import type { ClientEvent } from "../state/events.js";
import { restartKey } from "../state/events/restart.js";
import { emptyArena, reduce, type ArenaState } from "../web/arena-state.js";
import { liveRun } from "../web/live-run.js";
import { completionWriter, type Delta } from "../routes/openai-result.js";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import { translate, type Translate } from "../state/messages/index.js";
import { runEvents, testDeps } from "./support/harness.js";

const resumed: ClientEvent = { event: "run-resumed", data: { attempt: 2, timestamp: "" } };

/**
 * A run's events as a client gets them when its server dies after event `k` (in the middle of an
 * answer) and another takes it up: what was sent up to `k`, `run-resumed`, then everything again
 * from the start of the step under way (the first delta of every answer still being written at
 * `k`). With, for each event of the stream, the index of the same event in the run.
 */
function takenUpAt(events: ClientEvent[], k: number): { stream: ClientEvent[]; at: number[] } {
  const firstOf = (key: string) => events.findIndex((e) => restartKey(e) === key);
  let from = k;
  for (;;) {
    const keys = events.slice(from, k + 1).flatMap((e) => restartKey(e) ?? []);
    const first = Math.min(...keys.map(firstOf));
    if (first >= from) break;
    from = first;
  }
  const again = events.slice(from);
  return {
    stream: [...events.slice(0, k + 1), resumed, ...again],
    at: [...events.slice(0, k + 1).map((_, i) => i), -1, ...again.map((_, i) => from + i)],
  };
}

/** The arena after each event of a stream: as the page follows it live, or (`plain`) each event simply applied. */
function states(stream: ClientEvent[], plain = false): ArenaState[] {
  const next = liveRun();
  let arena = emptyArena();
  return stream.map((e) => (arena = plain ? reduce(arena, e) : next(e)(arena)));
}

describe("a run followed live on the page through a take-up", () => {
  for (const message of [
    "/debatt Bör AI regleras?",
    "/rank Which language first?",
    "/moa Which language first?",
    "/compare Which language first?",
    "/vote Tabs or spaces?",
    "/revise Tabs or spaces?",
    "/deep Is P = NP?",
    "/council Water boils at 100 °C at sea level.",
  ]) {
    it(`shows ${message.split(" ")[0]} as it would have been without it: each answer under way begins anew, the others keep their text`, async () => {
      const { deps } = testDeps();
      const events = await runEvents(deps, message, { participants: ["call_grok", "call_claude", "call_gpt"] });
      const deltas = events.flatMap((e, i) => (restartKey(e) ? [i] : []));
      let twice = 0;
      // Cut in the middle of an answer: at a quarter, half and three quarters of the run's text, and in its last answer.
      for (const cut of [...[1, 2, 3].map((q) => Math.floor((q * deltas.length) / 4)), deltas.length - 2]) {
        const k = deltas[cut];
        const { stream, at } = takenUpAt(events, k);
        const live = states(stream);
        const plain = states(stream, true);
        const run = states(events);
        // Once the step run again has passed where the first stopped, the page shows what the run showed there.
        const caughtUp = at.flatMap((i, j) => (j > k + 1 && i > k ? [j] : []));
        expect(caughtUp.length).toBeGreaterThan(0);
        for (const j of caughtUp) expect(live[j]).toEqual({ ...run[at[j]], resumed: 2 });
        if (caughtUp.some((j) => !isEqual(plain[j], { ...run[at[j]], resumed: 2 }))) twice++;
      }
      // Without starting them anew, the answers under way would show their text twice.
      expect(twice).toBeGreaterThan(0);
    });
  }

  it("keeps an answer whose step was saved before the take-up, and begins the one under way anew", () => {
    const who = (key: string) => ({ model: key, display: key, modelKey: key });
    const delta = (key: string, text: string): ClientEvent => ({
      event: "answer-delta",
      data: { mode: "rank", stage: "collect", ...who(key), delta: text, timestamp: "" },
    });
    const start: ClientEvent = {
      event: "rank-start",
      data: {
        conversationId: "c",
        messageId: "m",
        mode: "rank",
        question: "Q",
        participants: [who("a"), who("b")],
        chairman: who("a"),
        simulated: true,
        timestamp: "",
      },
    };
    const arena = states([start, delta("a", "A whole "), delta("b", "B half"), delta("a", "answer."), resumed, delta("b", "B whole answer.")]).at(-1)!;
    expect(arena.panel?.kind === "rank" && arena.panel.answers).toEqual({
      a: { text: "A whole answer.", status: "speaking" },
      b: { text: "B whole answer.", status: "speaking" },
    });
  });
});

describe("a run told through a take-up: the OpenAI-compatible answer", () => {
  const en: Translate = (key, values) => translate("en", key, values);
  /** What the answer sends, as it is narrated: its content, and what it keeps (JSON) or tells after. */
  function told(events: ClientEvent[], json: boolean) {
    const sent: Delta[] = [];
    const writer = completionWriter("reasoning", { stop: [], ...(json ? { json: {} } : {}) }, (d) => sent.push(d));
    events.forEach(createNarrator(writer.write, MARKDOWN_STYLES, en));
    writer.end();
    return { content: sent.map((d) => d.content ?? "").join(""), answer: writer.answer, after: writer.after };
  }

  for (const message of ["/debatt Bör AI regleras?", "/rank Which language first?"]) {
    it(`${message.split(" ")[0]}: a result cut mid-way is marked where it begins anew; a JSON result is written from the new one alone`, async () => {
      const { deps } = testDeps();
      const events = await runEvents(deps, message, { participants: ["call_grok", "call_claude", "call_gpt"] });
      // The server dies in the middle of the result (the last answer streamed).
      const last = restartKey(events.findLast((e) => restartKey(e))!);
      const result = events.flatMap((e, i) => (restartKey(e) === last ? [i] : []));
      const k = result[Math.floor(result.length / 2)];
      const { stream } = takenUpAt(events, k);
      const before = told(events.slice(0, k + 1), false).content;
      expect(before.length).toBeGreaterThan(0);
      const whole = told(events, false);
      const cut = told(stream, false);
      expect(cut.content).toBe(`${before}\n\n---\n\n${whole.content}`);
      expect(cut.after).toContain(en("answer.resumed"));
      expect(told(stream, true).answer).toBe(told(events, true).answer);
    });
  }
});
