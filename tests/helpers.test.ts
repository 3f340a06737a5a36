import { nearestModel } from "../providers/nearest-model.js";
import { clientOf, SignInThrottle } from "../routes/sign-in-throttle.js";
import { fromDatabase, runFailure, withoutAddresses } from "../state/errors.js";
import { describe, expect, it, vi } from "vitest";
import { DeltaCoalescer } from "../nodes/shared/delta-coalescer.js";
import { deltaCoalesceMs } from "../service/load.js";
import { kebabEventName } from "../state/events.js";
import { buildContextChain, buildTranscript } from "../nodes/debatt/lib/context-chain.js";
import { extractJsonObject } from "../state/replies/json.js";
import { parseCommand } from "../state/commands.js";
import { shuffleForRound } from "../nodes/shared/shuffle.js";
import { fallbackSynthesis } from "../nodes/debatt/lib/synthesis-text.js";
import { computeResults, filterSelfVotes, resolveWinner, tallyVotes } from "../nodes/debatt/lib/tally.js";
import { countWords, preview } from "../state/text.js";
import { matchParticipant, parseVote } from "../state/replies/debate-vote.js";
import type { Ballot, Convergence } from "../state/debate.js";
import { defaultRoster, selectParticipants } from "../state/participants.js";
import { EventEmitter } from "node:events";
import type { Response } from "express";
import { SseStream } from "../routes/sse.js";

const roster = defaultRoster();

describe("parseCommand", () => {
  it.each([
    ["/debatt Bör AI regleras?", { kind: "debate", topic: "Bör AI regleras?", voice: false, options: {} }],
    ["   /DEBATT   Kärnkraft?  ", { kind: "debate", topic: "Kärnkraft?", voice: false, options: {} }],
    ["/Dvoice 気候変動は人為的か？", { kind: "debate", topic: "気候変動は人為的か？", voice: true, options: {} }],
    ["/debatt\nmultiline topic", { kind: "debate", topic: "multiline topic", voice: false, options: {} }],
    ["/debatt --order simultaneous Bör AI regleras?", { kind: "debate", topic: "Bör AI regleras?", voice: false, options: { order: "simultaneous" } }],
    ["/dvoice --ORDER Sequential X", { kind: "debate", topic: "X", voice: true, options: { order: "sequential" } }],
    [
      "/debatt --order fast X",
      { kind: "bad_option", command: "/debatt", option: "--order fast", allowed: ["--order simultaneous", "--order sequential", "--with-me"] },
    ],
    ["/debatt --fast X", { kind: "bad_option", command: "/debatt", option: "--fast", allowed: ["--order simultaneous", "--order sequential", "--with-me"] }],
    ["/debatt --order simultaneous", { kind: "missing_topic", command: "/debatt" }],
    ["/dvoice --paced --order simultaneous X", { kind: "debate", topic: "X", voice: true, options: { voicePacing: "paced", order: "simultaneous" } }],
    ["/dvoice --paced off Ska vi?", { kind: "debate", topic: "Ska vi?", voice: true, options: { voicePacing: "off" } }],
    ["/dvoice --paced Ska vi?", { kind: "debate", topic: "Ska vi?", voice: true, options: { voicePacing: "paced" } }],
    ["/debatt --paced X", { kind: "bad_option", command: "/debatt", option: "--paced", allowed: ["--order simultaneous", "--order sequential", "--with-me"] }],
    ["/council --debate Is it so?", { kind: "deliberation", mode: "council", question: "Is it so?", options: { debate: true } }],
    // Options a person writes as a setting's own name are refused, never read as the topic.
    [
      "/debatt --max_cost_usd 0 X",
      { kind: "bad_option", command: "/debatt", option: "--max_cost_usd", allowed: ["--order simultaneous", "--order sequential", "--with-me"] },
    ],
    ["/council --round2TimeoutMs 1 Is it so?", { kind: "bad_option", command: "/council", option: "--round2TimeoutMs", allowed: ["--debate"] }],
    ["/compare --max_cost_usd 0 X", { kind: "bad_option", command: "/compare", option: "--max_cost_usd", allowed: [] }],
    ["/debatt -- X", { kind: "debate", topic: "-- X", voice: false, options: {} }],
    ["/debatt", { kind: "missing_topic", command: "/debatt" }],
    ["/dvoice    ", { kind: "missing_topic", command: "/dvoice" }],
    ["/debattera nu", { kind: "chat", text: "/debattera nu" }],
    ["what is /debatt?", { kind: "chat", text: "what is /debatt?" }],
    ["hej", { kind: "chat", text: "hej" }],
  ])("%j", (message, expected) => {
    expect(parseCommand(message)).toEqual(expected);
  });
});

describe("context chain", () => {
  const responses = { 1: { Grok: "a".repeat(700), Claude: "short" }, 2: { Claude: "second" } };
  it("lists earlier rounds and the current round so far, each answer truncated", () => {
    const chain = buildContextChain("T", 2, responses, 600);
    expect(chain.split("\n")).toEqual([
      "Debattämne: T",
      "--- Runda 1 ---",
      `[Grok]: ${"a".repeat(600)}…`,
      "[Claude]: short",
      "--- Runda 2 (hittills) ---",
      "[Claude]: second",
    ]);
  });
  it("shows only the topic to the first speaker", () => {
    expect(buildContextChain("T", 1, {}, 600)).toBe("Debattämne: T");
  });
  it("keeps whole answers in the transcript", () => {
    expect(buildTranscript("T", responses)).toContain(`[Grok]: ${"a".repeat(700)}\n`);
  });
});

describe("extractJsonObject", () => {
  it("parses plain JSON", () => expect(extractJsonObject('{"a": 1}')).toEqual({ a: 1 }));
  it("parses a fenced block", () => expect(extractJsonObject('Here:\n```json\n{"a": {"b": 2}}\n```\nthanks')).toEqual({ a: { b: 2 } }));
  it("finds JSON in prose with nested braces and escaped quotes", () => {
    const text = 'I think {not json} but here: {"voted_for": "Claude", "short_motivation": "said \\"{x}\\" well", "three_bullets": ["}", "{", "c"]} done.';
    expect(extractJsonObject(text)).toEqual({ voted_for: "Claude", short_motivation: 'said "{x}" well', three_bullets: ["}", "{", "c"] });
  });
  it.each(["", "no json here", "{broken", "[1, 2]", '{"a": }'])("returns null for %j", (text) => expect(extractJsonObject(text)).toBeNull());
});

describe("parseVote", () => {
  const vote = (o: object) => JSON.stringify({ voted_for: "claude", short_motivation: "good", three_bullets: ["a", "b", "c"], ...o });
  it("maps voted_for case-insensitively, by name or key", () => {
    expect(parseVote(vote({}), roster)).toEqual({ ok: true, vote: { voted_for: "Claude", motivation: "good", bullets: ["a", "b", "c"] } });
    expect(parseVote(vote({ voted_for: "CALL_GPT" }), roster)).toMatchObject({ ok: true, vote: { voted_for: "ChatGPT" } });
    expect(matchParticipant(' "Gemini". ', roster)).toBe("Gemini");
  });
  it("rejects a vote that names nobody, is empty or lacks bullets", () => {
    expect(parseVote(vote({ voted_for: "HAL" }), roster)).toEqual({ ok: false, reason: 'voted_for "HAL" names no participant' });
    expect(parseVote("  ", roster)).toEqual({ ok: false, reason: "empty answer" });
    expect(parseVote("I pick Claude", roster)).toEqual({ ok: false, reason: "no JSON object in the answer" });
    expect(parseVote(vote({ voted_for: "" }), roster)).toMatchObject({ ok: false });
    expect(parseVote(vote({ three_bullets: ["a"] }), roster)).toMatchObject({ ok: false, reason: expect.stringContaining("exactly 3") });
  });
  it("repairs an over-long motivation and extra bullets instead of losing the vote", () => {
    const parsed = parseVote(vote({ short_motivation: "x".repeat(300), three_bullets: ["a", "b", "c", "d"] }), roster);
    expect(parsed.ok && parsed.vote.motivation.length).toBe(200);
    expect(parsed.ok && parsed.vote.bullets).toEqual(["a", "b", "c"]);
  });
});

describe("countWords and preview", () => {
  it("counts words in any script, not punctuation or markdown", () => {
    expect(countWords("## Hej, världen! Det är *bra* - eller hur?")).toBe(7);
    expect(countWords("")).toBe(0);
    expect(countWords("don't stop 2026")).toBe(3);
  });
  it("counts what the pattern of a word matches, in every script and beyond the 16-bit plane", () => {
    const byPattern = (text: string) => text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
    const pieces = ["a", "Z", "9", "å", "Ö", "é", "ß", "я", "中", "٣", "𝐀", "𠀀", "😀", "'", "’", "-", "—", " ", "\n", "*", "#", ".", "_", "\u0301", "\ud800"];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: next() % 30 }, () => pieces[next() % pieces.length]).join("");
      expect(countWords(text), JSON.stringify(text)).toBe(byPattern(text));
    }
    expect(countWords("𝐀𝐁 𠀀x — co-op’s -x x- 'y'")).toBe(6);
  });
  it("previews on one line", () => expect(preview("a\n\nb  c", 200)).toBe("a b c"));
  it("previews what the whole text flattened would begin with, however its whitespace falls", () => {
    const whole = (text: string, max: number) => {
      const flat = text.replace(/\s+/g, " ").trim();
      return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
    };
    const pieces = ["word", "ord ", " ", "  ", "\n\n", "\t", "x", "långt ord", "        "];
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: next() % 120 }, () => pieces[next() % pieces.length]).join("");
      const max = 5 + (next() % 40);
      expect(preview(text, max), JSON.stringify([text, max])).toBe(whole(text, max));
    }
    for (const max of [0, -1]) expect(preview("some text here", max)).toBe(whole("some text here", max));
  });
});

const ballot = (voter: string, voted_for: string | null, valid = true): Ballot => ({ voter, voter_key: voter, voted_for, motivation: "", bullets: [], valid });

describe("tally and winner", () => {
  it("filters self-votes case-insensitively", () => {
    const { kept, selfVotes } = filterSelfVotes([ballot("Grok", "grok"), ballot("Claude", "Grok"), ballot("Qwen", null, false)]);
    expect(selfVotes).toBe(1);
    expect(kept.map((b) => b.voter)).toEqual(["Claude"]);
  });
  it("counts votes for every participant", () => {
    expect(tallyVotes([ballot("A", "B"), ballot("C", "B")], ["A", "B", "C"])).toEqual({ A: 0, B: 2, C: 0 });
  });
  it("picks the most votes", () => expect(resolveWinner({ A: 1, B: 2 }, { A: 999 })).toEqual({ winner: "B", tiebreaker: "none" }));
  it("breaks a tie by total word count", () =>
    expect(resolveWinner({ A: 2, B: 2, C: 1 }, { A: 10, B: 20, C: 99 })).toEqual({ winner: "B", tiebreaker: "word_count" }));
  it("breaks a remaining tie alphabetically", () =>
    expect(resolveWinner({ Qwen: 1, Claude: 1 }, { Qwen: 5, Claude: 5 })).toEqual({ winner: "Claude", tiebreaker: "alphabetical" }));
  it("computes results with filtered and invalid votes", () => {
    const r = computeResults([ballot("A", "A"), ballot("B", "A"), ballot("C", null, false)], ["A", "B", "C"], { A: 3, B: 2, C: 1 });
    expect(r).toEqual({
      winner: "A",
      vote_counts: { A: 1, B: 0, C: 0 },
      tiebreaker_used: false,
      tiebreaker: "none",
      word_counts: { A: 3, B: 2, C: 1 },
      total_votes: 1,
      self_votes_filtered: 1,
      invalid_votes: 1,
    });
  });
});

describe("fallback synthesis", () => {
  const convergence: Convergence = {
    winner: "Claude",
    vote_counts: { Claude: 2, Grok: 2 },
    tiebreaker_used: true,
    tiebreaker: "word_count",
    word_counts: {},
    total_votes: 4,
    self_votes_filtered: 0,
    invalid_votes: 0,
    analysis: null,
  };
  it("names topic, winner, tiebreak and votes in the topic's language", () => {
    expect(fallbackSynthesis("Should cars be banned?", convergence)).toBe(
      "## Debate result: Should cars be banned?\n\nWinner: **Claude** (tie, decided by total word count)\n\nVotes:\n- Claude: 2\n- Grok: 2",
    );
    expect(fallbackSynthesis("Bör bilar förbjudas?", convergence)).toContain("Vinnare: **Claude** (oavgjort, avgjort på totalt antal ord)");
  });
});

describe("shuffle and participants", () => {
  it("shuffles deterministically per seed and round", () => {
    const keys = roster.map((p) => p.key);
    expect(shuffleForRound(keys, 1, 1)).toEqual(shuffleForRound(keys, 1, 1));
    expect(shuffleForRound(keys, 1, 1)).not.toEqual(shuffleForRound(keys, 1, 2));
    expect([...shuffleForRound(keys, 1, 1)].sort()).toEqual([...keys].sort());
  });
  it("selects a subset by key or name and rejects bad requests", () => {
    expect(selectParticipants(roster, ["GROK", "call_qwen"]).map((p) => p.display)).toEqual(["Grok", "Qwen"]);
    expect(() => selectParticipants(roster, ["grok"])).toThrow("a debate needs 2–8 participants, 1 requested");
    expect(() => selectParticipants(roster, ["grok", "hal"])).toThrow("unknown participant(s): hal");
  });
});

describe("events helpers", () => {
  it("kebab-cases names", () => expect(kebabEventName("debate_participant_delta")).toBe("debate-participant-delta"));
  it("sends the first delta at once, coalesces the rest, and flushes a stalled stream", () => {
    vi.useFakeTimers();
    try {
      const sent: string[] = [];
      const c = new DeltaCoalescer((d) => sent.push(d), 50);
      c.push("a");
      c.push("b");
      c.push("c");
      expect(sent).toEqual(["a"]);
      vi.advanceTimersByTime(60);
      expect(sent).toEqual(["a", "bc"]);
      c.push("d");
      c.flush();
      expect(sent).toEqual(["a", "bc", "d"]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the text's coalescing under load", () => {
  it("coalesces every 40 ms on a process with time to spare, 100 ms when its loop is half busy, 200 ms from three quarters", () => {
    expect([0, 0.49, 0.5, 0.74, 0.75, 1].map((u) => deltaCoalesceMs(u))).toEqual([40, 40, 100, 100, 200, 200]);
  });

  it("reads this process's event loop: kept busy, it coalesces more coarsely", async () => {
    // Busy 90 ms of every 100 for two seconds (the utilization is sampled once a second).
    const until = performance.now() + 2_100;
    while (performance.now() < until) {
      const busy = performance.now() + 90;
      while (performance.now() < busy);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(deltaCoalesceMs()).toBe(200);
  });
});

describe("SseStream", () => {
  it("leaves no listener behind when it waits for a slow client to drain", async () => {
    // A response whose socket buffer is always full: every write waits for 'drain'.
    const res = Object.assign(new EventEmitter(), {
      writableEnded: false,
      destroyed: false,
      writeHead: () => {},
      flushHeaders: () => {},
      write: () => false,
      end: () => {},
    });
    const sse = new SseStream(res as unknown as Response, 60_000);
    const listeners = () => res.listenerCount("close") + res.listenerCount("drain") + res.listenerCount("error");
    const before = listeners();
    for (let id = 1; id <= 20; id++) {
      const sent = sse.send({ id, event: "text-delta", data: { delta: "x" } });
      setImmediate(() => res.emit("drain"));
      await sent;
    }
    sse.end();
    expect(listeners()).toBe(before);
  });
});

describe("what a client is told of a failure", () => {
  it("leaves out URLs, addresses and looked-up names, but not times", () => {
    const cases: [string, string][] = [
      ["connect ECONNREFUSED 127.0.0.1:5432", "connect ECONNREFUSED (x)"],
      ["connect ECONNREFUSED ::1:5432", "connect ECONNREFUSED (x)"],
      ["refused at [::1]:5432 now", "refused at (x) now"],
      ["getaddrinfo ENOTFOUND db.internal", "getaddrinfo ENOTFOUND (x)"],
      ["mydb.cluster.rds.amazonaws.com:5432 went away", "(x) went away"],
      ["postgres://u:secret@db:5432/x failed", "(x) failed"],
      ["localhost:3000 refused", "(x) refused"],
      ["the meeting at 10:30, then 12:30:45", "the meeting at 10:30, then 12:30:45"],
    ];
    for (const [text, told] of cases) expect(withoutAddresses(text, "(x)"), text).toBe(told);
  });

  it("says database_unavailable only for the database's own connection errors", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" });
    // A provider or speech endpoint that refuses a connection is not the database.
    expect(runFailure(refused)).toEqual({ code: "internal_error", message: "connect ECONNREFUSED (a server)" });
    const fetchFailed = await fetch("http://127.0.0.1:9/").catch((err: unknown) => err);
    expect(runFailure(fetchFailed).code).toBe("internal_error");
    // The database's, as the pools mark it, also wrapped by the query builder.
    const wrapped = new Error("Failed query: select 1\nparams: ", { cause: fromDatabase(Object.assign(new Error("Connection terminated unexpectedly"), {})) });
    expect(runFailure(wrapped)).toMatchObject({ code: "database_unavailable" });
    expect(runFailure(fromDatabase(refused)).code).toBe("database_unavailable");
    // A query the database refused is no outage, and its SQL is not repeated.
    expect(
      runFailure(new Error("Failed query: insert into x\nparams: 1", { cause: fromDatabase(Object.assign(new Error("duplicate key"), { code: "23505" })) })),
    ).toEqual({ code: "internal_error", message: "duplicate key" });
    expect(runFailure(new Error("Failed query: insert into x\nparams: 1"))).toEqual({ code: "internal_error", message: "the database refused the query" });
  });
});

describe("whom a failed sign-in counts for", () => {
  it("is an IPv4 address itself, and an IPv6 address's /64 network", () => {
    expect(clientOf("203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientOf("::1")).toBe("0:0:0:0::/64");
  });

  it("locks out a whole IPv6 /64 at once, and not its neighbours", () => {
    const throttle = new SignInThrottle(3);
    for (let i = 1; i <= 3; i++) throttle.failed("users", `2001:db8:1:2::${i}`);
    expect(throttle.lockedFor("users", "2001:db8:1:2::99")).toBeGreaterThan(0);
    expect(throttle.lockedFor("users", "2001:db8:1:3::1")).toBe(0);
    expect(throttle.lockedFor("admin", "2001:db8:1:2::99")).toBe(0);
  });
});

describe("the nearest listed model id", () => {
  it("is the same vendor's closest id, or none", () => {
    const listed = ["x-ai/grok-4.1", "x-ai/grok-code-fast-1", "openai/gpt-5", "openai/gpt-5-mini", "grok-4-fast"];
    expect(nearestModel("x-ai/grok-4", listed)).toBe("x-ai/grok-4.1");
    expect(nearestModel("openai/gpt-5-mni", listed)).toBe("openai/gpt-5-mini");
    expect(nearestModel("anthropic/claude-3-opus", listed)).toBeUndefined();
    expect(nearestModel("grok-4", listed)).toBe("grok-4-fast");
  });
});
