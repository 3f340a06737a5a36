import { withoutAliases } from "../state/events/aliases.js";
import type { StoredConversation } from "../web/api-client.js";
import { simulatedModels } from "../service/formats.js";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../ports/models.js";
import type { ClientEvent } from "../state/events.js";
import { defaultRoster } from "../state/participants.js";
import { emptyArena, reduce, type ArenaState } from "../web/arena-state.js";
import { storedEvents } from "../web/stored-events.js";
import { withOverrides, type Script } from "./support/fake-model.js";
import { testDeps } from "./support/harness.js";
import { HISTORY_DATABASES, historyDatabaseHooks } from "./support/history-db.js";
import { postChat, readSse, startApp } from "./support/http.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];
const FOUR = [...THREE, "call_gemini"];

/** What a format's view is drawn from, without what only exists while text streams in. */
function view(s: ArenaState) {
  const { deliberation, panel, compare, simulated, cards, votes, results, synthesis, topic, voice, participants } = s;
  const stable = deliberation && (({ ballots, revising, ...rest }) => rest)(deliberation);
  const drawn = { simulated, deliberation: stable, panel, compare, cards, votes, results, synthesis, topic, voice, participants };
  // When an event was sent is not stored: the view shows none of it.
  return JSON.parse(JSON.stringify(drawn, (key, value) => (key === "timestamp" ? undefined : value)));
}

/** Round 1 of Gemini's answer fails; each voter picks a different answer, so the chairman breaks the tie. */
const voteScript: Script = withOverrides((req: ModelRequest, _i, messages) => {
  if (req.phase === "answer" && req.participant?.key === "call_gemini") return { error: new Error("provider 500") };
  if (req.phase !== "ballot") return undefined;
  const labels = [
    ...messages
      .map((m) => String(m.content))
      .join("\n")
      .matchAll(/--- (Response [A-Z]) ---/g),
  ].map((m) => m[1]);
  const pick = labels[THREE.indexOf(req.participant!.key) % labels.length];
  return `Each picks another.\nVOTE: ${pick}`;
});

/** The revisions fail (each keeps its first answer), and every voter picks the second Grok's answer. */
const secondGrokWins: Script = withOverrides((req: ModelRequest, _i, messages) => {
  if (req.phase === "answer") return `${req.participant!.display} answers: mark-${req.participant!.key}.`;
  if (req.phase === "revision") return { error: new Error("provider 500") };
  if (req.phase !== "ballot") return undefined;
  const prompt = messages.map((m) => String(m.content)).join("\n");
  const [, pick] = [...prompt.matchAll(/--- (Response [A-Z]) ---\n([^]*?)(?=\n--- Response|$)/g)]
    .map((m) => [m[2], m[1]])
    .find(([text]) => text.includes("mark-call_grok_2"))!;
  return `The second Grok's.\nVOTE: ${pick}`;
});

/** Every model stands by its answer, yet writes another text after the label (a STAND keeps the original). */
const standsWithOtherText: Script = withOverrides((req: ModelRequest) =>
  req.phase === "revision"
    ? `DECISION: STAND\nREASONING: Mine holds.\n\nREVISED RESPONSE:\nSomething else entirely from ${req.participant!.display}.`
    : undefined,
);

/** The models that write the final text fail: a computed text stands in. */
const finalTextFails: Script = withOverrides((req: ModelRequest) =>
  req.phase === "deep_synthesis" || req.phase === "council_report" ? { error: new Error("provider 503") } : undefined,
);

describe.each(HISTORY_DATABASES)("a run reopened from the history on $db", (database) => {
  const hooks = historyDatabaseHooks(database);

  /** Runs `message` live (on the scripted models, or on the simulated provider), then reads its conversation back: the view built from each. */
  async function liveAndReopened(message: string, participants: string[], script?: Script | "simulated") {
    const db = await hooks.open();
    const { deps } = testDeps({ script: script === "simulated" ? undefined : script, settings: { roster: defaultRoster() } });
    if (script === "simulated") deps.models = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 20 });
    const app = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
    hooks.later(app.close);
    const { events } = await readSse(await postChat(app.url, { message, participants }));
    // Read as the page reads its stream (web/stream.ts): without the wire's snake_case aliases.
    const live = (withoutAliases(events) as unknown as ClientEvent[]).reduce(reduce, emptyArena());
    const id = String(events[0].data.run_id);
    const conversation = (await (await fetch(`${app.url}/api/v1/conversations/${id}`)).json()) as StoredConversation;
    const [question, answer] = conversation.messages;
    const replayed = storedEvents(answer.id, answer.format, answer.result, question.content, conversation.title ?? undefined);
    expect(replayed, "the stored run replays as events").toBeDefined();
    return { live, reopened: replayed!.reduce(reduce, emptyArena()), answer, question };
  }

  it.skipIf(database.skip)("/vote: the answers (a failed one too), the counted vote, the chairman's tiebreak and the winner", async () => {
    const { live, reopened, answer, question } = await liveAndReopened("/vote Vilket språk passar bäst?", FOUR, voteScript);
    expect(live.deliberation?.answers.call_gemini).toMatchObject({ status: "error", error: "provider 500" });
    expect(live.deliberation?.tiebreaker).toBeDefined();
    expect(live.deliberation?.stage).toBe("complete");
    expect(view(reopened)).toEqual(view(live));

    // A run stored before the panel row: the same answers and votes, under the models' ids.
    const { participants, chairman, question: _, simulated, ...older } = answer.result as Record<string, unknown>;
    const old = storedEvents(answer.id, answer.format, older, question.content)!.reduce(reduce, emptyArena()).deliberation!;
    expect(old.question).toBe("Vilket språk passar bäst?");
    expect(old.participants.map((p) => p.display)).toEqual(["x-ai/grok-4", "anthropic/claude-sonnet-4.5", "openai/gpt-5", "google/gemini-2.5-pro"]);
    expect(old.answers).toEqual(live.deliberation!.answers);
    expect(old.vote?.tallies).toEqual(live.deliberation!.vote?.tallies);
    expect(old.winner?.winnerResponse).toBe(live.deliberation!.winner?.winnerResponse);
  });

  it.skipIf(database.skip)("/revise with anti-anchoring: the first answers, the decisions with their restatements, the vote and the winner", async () => {
    const { live, reopened } = await liveAndReopened("/revise --anti-anchoring Fyra dagars arbetsvecka?", THREE);
    expect(live.deliberation?.antiAnchoring).toBe(true);
    expect(live.deliberation?.revisions?.every((r) => r.restatement)).toBe(true);
    expect(live.deliberation?.winner).toBeDefined();
    expect(view(reopened)).toEqual(view(live));
  });

  it.skipIf(database.skip)("/deep: the first answers, every round's arguments and assessment, the synthesis", async () => {
    const { live, reopened } = await liveAndReopened("/deep Monolit eller tjänster?", ["call_grok", "call_claude"]);
    expect(live.panel?.kind === "deep" && live.panel.rounds.length).toBe(2);
    expect(view(reopened)).toEqual(view(live));
  });

  it.skipIf(database.skip)("/council --debate: the judges and their perspectives, both rounds' verdicts, the consensus and the report", async () => {
    const { live, reopened } = await liveAndReopened("/council --debate Koden är redo att släppas.", THREE);
    expect(live.panel?.kind === "council" && Object.keys(live.panel.verdicts)).toEqual(["1", "2"]);
    expect(view(reopened)).toEqual(view(live));
  });

  it.skipIf(database.skip)("/revise with a model given twice names the one of the two that won", async () => {
    const { live, reopened } = await liveAndReopened("/revise Fyra dagars arbetsvecka?", ["call_grok", "call_grok", "call_claude"], secondGrokWins);
    expect(live.deliberation?.winner?.winnerDisplay).toBe("Grok (2)");
    expect(view(reopened)).toEqual(view(live));
  });

  it.skipIf(database.skip)("/revise whose models stand by their answers keeps the original answers, as live", async () => {
    const { live, reopened } = await liveAndReopened("/revise Hur lagrar man lösenord?", THREE, standsWithOtherText);
    expect(live.deliberation?.revisions?.every((r) => r.decision === "STAND" && r.revisedResponse === r.originalResponse)).toBe(true);
    expect(view(reopened)).toEqual(view(live));
  });

  it.skipIf(database.skip)("/deep and /council whose final text's model failed say that a computed text stands in", async () => {
    for (const message of ["/deep Monolit eller tjänster?", "/council Koden är redo att släppas."]) {
      const { live, reopened } = await liveAndReopened(message, ["call_grok", "call_claude"], finalTextFails);
      const panel = live.panel as { synthesisFallback?: boolean; reportFallback?: boolean };
      expect(panel.synthesisFallback ?? panel.reportFallback).toBe(true);
      expect(view(reopened)).toEqual(view(live));
    }
  });

  it.skipIf(database.skip)("/debatt and /compare keep their views too, and say the participants were simulated when they were", async () => {
    for (const [message, who] of [
      ["/debatt Bör AI regleras?", THREE],
      ["/compare Tabs eller mellanslag?", THREE],
    ] as const) {
      const { live, reopened } = await liveAndReopened(message, [...who], "simulated");
      expect(live.simulated).toBe(true);
      expect(view(reopened)).toEqual(view(live));
    }
  });
});
