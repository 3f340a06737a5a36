import type { StoredConversation } from "../web/api-client.js";
import { withoutAliases } from "../state/events/aliases.js";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it, onTestFinished } from "vitest";
import type { ClientEvent } from "../state/events.js";
import { FORMAT_IDS, FORMATS, kindOfStoredMode, storedModeOf, type FormatId } from "../state/formats.js";
import { defaultRoster } from "../state/participants.js";
import { emptyArena, formatOfRun, reduce, type ArenaState } from "../web/arena-state.js";
import { runParticipants } from "../web/chat-message.js";
import { ADMIN_GROUPS, commandHint, FORMAT_VIEWS, viewOf } from "../web/formats/index.js";
import { storedEvents } from "../web/stored-events.js";
import { FakeSpeech } from "./support/fake-speech.js";
import { testDeps } from "./support/harness.js";
import { sqliteHistory } from "./support/history-db.js";
import { postChat, readSse, startApp } from "./support/http.js";

/** The debate's events: three spoken rounds of three turns, the vote, the results and the synthesis. */
const DEBATE: [string, number][] = [
  ["debate-init", 1],
  ["debate-round-start", 4],
  ["debate-participant-start", 9],
  ["debate-participant-delta", 9],
  ["debate-participant-end", 9],
  ["debate-round-end", 3],
  ["debate-vote-result", 3],
  ["debate-results", 1],
  ["text-delta", 1],
  ["done", 1],
];

/**
 * A run of a format (three participants), and its stored result's events, each name with its count,
 * in the order they first come; a format without an entry runs "<command> Vilket språk passar bäst?"
 * and is held to the checks every format is.
 */
const RUNS: Partial<Record<FormatId, { message: string; replayed: [string, number][] }>> = {
  debatt: { message: "/debatt Bör AI regleras?", replayed: DEBATE },
  dvoice: { message: "/dvoice Bör AI regleras?", replayed: DEBATE },
  compare: {
    message: "/compare Tabs eller mellanslag?",
    replayed: [
      ["compare-start", 1],
      ["compare-answer-start", 3],
      ["compare-answer-delta", 3],
      ["compare-answer-end", 3],
      ["compare-complete", 1],
      ["done", 1],
    ],
  },
  vote: {
    message: "/vote Vilket språk passar bäst?",
    replayed: [
      ["vote-start", 1],
      ["stage1-complete", 1],
      ["vote-round-start", 1],
      ["vote-round-complete", 1],
      ["winner-declared", 1],
      ["title-complete", 1],
      ["complete", 1],
      ["done", 1],
    ],
  },
  revise: {
    message: "/revise Fyra dagars arbetsvecka?",
    replayed: [
      ["debate-start", 1],
      ["round1-complete", 1],
      ["revision-start", 1],
      ["revision-complete", 1],
      ["vote-start", 1],
      ["vote-complete", 1],
      ["winner-declared", 1],
      ["title-complete", 1],
      ["complete", 1],
      ["done", 1],
    ],
  },
  deep: {
    message: "/deep Monolit eller tjänster?",
    replayed: [
      ["deep-start", 1],
      ["stage1-complete", 1],
      ["deep-round-start", 2],
      ["deep-round-complete", 2],
      ["deep-output", 1],
      ["deep-synthesis-complete", 1],
      ["title-complete", 1],
      ["complete", 1],
      ["done", 1],
    ],
  },
  council: {
    message: "/council --debate Koden är redo att släppas.",
    replayed: [
      ["council-start", 1],
      ["council-round-start", 2],
      ["council-verdict", 6],
      ["council-consolidation", 1],
      ["council-report-complete", 1],
      ["title-complete", 1],
      ["complete", 1],
      ["done", 1],
    ],
  },
  rank: {
    message: "/rank Vilket språk passar bäst?",
    replayed: [
      ["rank-start", 1],
      ["stage1-complete", 1],
      ["rank-rankings-start", 1],
      ["rank-ranking", 3],
      ["rank-aggregate", 1],
      ["rank-final", 1],
      ["title-complete", 1],
      ["complete", 1],
      ["done", 1],
    ],
  },
  moa: {
    message: "/moa Vilket språk passar bäst?",
    replayed: [
      ["moa-start", 1],
      ["stage1-complete", 1],
      ["moa-layer-start", 1],
      ["moa-layer-complete", 1],
      ["moa-aggregate-start", 1],
      ["moa-final", 1],
      ["title-complete", 1],
      ["complete", 1],
      ["done", 1],
    ],
  },
};

/** What a format's view is drawn from, without what only exists while text streams in or when it was sent. */
function view(s: ArenaState) {
  const { deliberation, panel, compare, simulated, cards, votes, results, synthesis, topic, voice, participants } = s;
  const stable = deliberation && (({ ballots, revising, ...rest }) => rest)(deliberation);
  const drawn = { simulated, deliberation: stable, panel, compare, cards, votes, results, synthesis, topic, voice, participants };
  return JSON.parse(JSON.stringify(drawn, (key, value) => (key === "timestamp" ? undefined : value)));
}

/** How many of each event, by name, in the order the names first come. */
const countOf = (events: ClientEvent[]) => events.reduce<Record<string, number>>((n, e) => ({ ...n, [e.event]: (n[e.event] ?? 0) + 1 }), {});

/** Runs `message` live on the scripted test models (a /dvoice spoken by a fake voice), and reads its conversation back from the history. */
async function liveAndStored(message: string) {
  const db = await sqliteHistory();
  const { deps } = testDeps({ settings: { roster: defaultRoster() } });
  deps.speech = () => new FakeSpeech();
  const app = await startApp(deps, { checkpointer: new MemorySaver(), history: db.history });
  onTestFinished(async () => {
    await app.close();
    await db.close();
  });
  const { events } = await readSse(await postChat(app.url, { message, participants: ["call_grok", "call_claude", "call_gpt"] }));
  // Read as the page reads its stream (web/stream.ts): without the wire's snake_case aliases.
  const live = (withoutAliases(events) as unknown as ClientEvent[]).reduce(reduce, emptyArena());
  const conversation = (await (await fetch(`${app.url}/api/v1/conversations/${String(events[0].data.run_id)}`)).json()) as StoredConversation;
  const [question, answer] = conversation.messages;
  return { live, events, answer, question: question.content, title: conversation.title ?? undefined };
}

describe("the page's formats", () => {
  it("has a view for every format, with every piece", () => {
    expect(Object.keys(FORMAT_VIEWS)).toEqual(FORMAT_IDS);
    for (const id of FORMAT_IDS) {
      const v = viewOf(id);
      expect(Object.keys(v).sort(), id).toEqual(["View", "adminGroup", "hintOptions", "label", "panel", "participants", "replay", "spoken"]);
      expect(v.label).toBe(FORMATS[id].command);
      // A panel follows its own format's runs only.
      if (v.panel) expect(v.panel.kind, id).toBe(id);
    }
  });

  it("reads a stored mode as its format only at the store's boundary (/revise is stored as `debate`), and groups the admin's prompts by format", () => {
    expect(["debatt", "dvoice", "compare", "vote", "debate", "deep", "council", "rank", "chat"].map(kindOfStoredMode)).toEqual([
      "debatt",
      "dvoice",
      "compare",
      "vote",
      "revise",
      "deep",
      "council",
      "rank",
      "chat",
    ]);
    expect(FORMAT_IDS.every((id) => kindOfStoredMode(storedModeOf(id)) === id)).toBe(true);
    expect(storedModeOf("revise")).toBe("debate");
    // Each format's group once, in the formats' order (/debatt and /dvoice share one), then the shared prompts'.
    expect(ADMIN_GROUPS).toEqual([...new Set(FORMAT_IDS.map((id) => viewOf(id).adminGroup)), "deliberation"]);
    expect(ADMIN_GROUPS).toEqual(expect.arrayContaining(["debate", "compare", "vote", "revise", "deep", "council", "rank", "deliberation"]));
    expect(FORMAT_IDS.filter((id) => viewOf(id).spoken)).toEqual(["dvoice"]);
  });

  it("writes each command in the composer's hint with the options it shows", () => {
    const hints = FORMAT_IDS.map((id) => commandHint(id, FORMATS[id].takes));
    expect(hints.every((hint, i) => hint.startsWith(`${FORMATS[FORMAT_IDS[i]].command} `))).toBe(true);
    expect(hints).toEqual(
      expect.arrayContaining([
        "/debatt [--order simultaneous] [--with-me] <topic>",
        "/dvoice [--paced] <topic>",
        "/compare <question>",
        "/vote <question>",
        "/revise <question>",
        "/deep <question>",
        "/council [--debate] <claim>",
        "/rank <question>",
        "/moa <question>",
      ]),
    );
  });

  it.each(FORMAT_IDS)("replays a stored /%s run as the events the page showed it live from", async (id) => {
    const run = RUNS[id];
    const { live, events, answer, question, title } = await liveAndStored(run?.message ?? `${FORMATS[id].command} Vilket språk passar bäst?`);
    // The API names the format, and the mode it is stored under (/revise's is `debate`).
    expect(answer).toMatchObject({ format: id, mode: FORMATS[id].storedMode });
    const replayed = storedEvents(answer.id, answer.format, answer.result, question, title);
    // It replays only events the run sent live (and ends as a stream does).
    const sent = new Set(events.map((e) => e.event));
    expect(Object.keys(countOf(replayed ?? [])).filter((name) => !sent.has(name))).toEqual([]);
    if (run) expect(Object.entries(countOf(replayed ?? []))).toEqual(run.replayed);
    const reopened = replayed!.reduce(reduce, emptyArena());
    expect(formatOfRun(live)).toBe(id);
    expect(formatOfRun(reopened)).toBe(id);
    expect(view(reopened)).toEqual(view(live));
    expect(runParticipants(reopened)).toEqual(runParticipants(live));
    expect(runParticipants(reopened)).toHaveLength(3);
    // Its own view draws it (called as the page would render it).
    expect(viewOf(id).View({ a: reopened, storedAudio: true })).not.toBeNull();
  });
});
