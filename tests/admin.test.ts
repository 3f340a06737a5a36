import { FORMAT_DEFINITIONS } from "../service/formats.js";
import { SUBGRAPH_FORMATS } from "../state/formats.js";
import { afterEach, describe, expect, it } from "vitest";
import { PROMPTS } from "../prompts/registry.js";
import { MAX_PROMPT_CHARS } from "../prompts/render.js";
import { testDeps } from "./support/harness.js";
import { startApp } from "./support/http.js";

const TOKEN = "admin-token-0123456789";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function admin(adminToken: string | null = TOKEN) {
  const { deps, models } = testDeps();
  deps.settings = { ...deps.settings, adminToken: adminToken ?? undefined };
  const server = await startApp(deps);
  cleanups.push(server.close);
  const call = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
    fetch(`${server.url}/api/v1/admin${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  return { server, call, deps, models };
}

const KEY = "debate.round.2.argument";

describe("admin authentication", () => {
  it("answers 503 with the reason when ADMIN_TOKEN is unset", async () => {
    const { call } = await admin(null);
    const res = await call("GET", "/prompts");
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatchObject({ code: "admin_disabled", message: expect.stringContaining("ADMIN_TOKEN") });
  });

  it.each([
    ["no header", null, "missing Authorization"],
    ["a wrong token", "wrong-token-0123456789", "not valid"],
    ["a token that is a prefix of the right one", TOKEN.slice(0, -1), "not valid"],
  ])("refuses %s with 401", async (_name, token, message) => {
    const { call } = await admin();
    const res = await call("GET", "/prompts", undefined, token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await res.json()).error.message).toContain(message);
  });

  it("refuses a malformed Authorization header with 401", async () => {
    const { server } = await admin();
    const res = await fetch(`${server.url}/api/v1/admin/prompts`, { headers: { authorization: `Basic ${TOKEN}` } });
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toContain("Bearer");
  });
});

describe("admin prompts", () => {
  it("lists every key (the seed's 16 and the other formats') with description, placeholders, default, override and effective text", async () => {
    const { call } = await admin();
    const body = await (await call("GET", "/prompts")).json();
    expect(body.prompts.map((p: any) => p.key)).toEqual(PROMPTS.map((p) => p.key));
    // The seed's 16, then every other format's and the shared ones.
    expect(body.prompts.length).toBeGreaterThan(16);
    for (const p of body.prompts) {
      expect(Object.keys(p).sort()).toEqual(["default", "description", "effective", "key", "override", "placeholders"]);
      expect(p.override).toBeNull();
      expect(p.effective).toBe(p.default);
    }
  });

  it("overrides a prompt, uses it in the next debate, and reverts it with DELETE", async () => {
    const { call, server, models } = await admin();
    const text = "OVERRIDDEN ROUND TWO {context}";

    const put = await call("PUT", `/prompts/${KEY}`, { text });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ key: KEY, override: text, effective: text });
    await (
      await fetch(`${server.url}/api/v1/chat/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "/debatt X", participants: ["call_grok", "call_claude"] }),
      })
    ).text();
    expect(String(models.callsOf("turn", "call_grok")[1].messages.at(-1)!.content)).toMatch(/^OVERRIDDEN ROUND TWO /);

    const del = await call("DELETE", `/prompts/${KEY}`);
    const reverted = await del.json();
    expect(reverted.override).toBeNull();
    expect(reverted.effective).toBe(reverted.default);
    expect((await (await call("GET", `/prompts/${KEY}`)).json()).override).toBeNull();
  });

  it.each([
    ["an unknown key", "/prompts/debate.nope", { text: "x" }, 404, "unknown prompt key"],
    ["an empty text", `/prompts/${KEY}`, { text: "   " }, 400, "empty"],
    ["a text that is not a string", `/prompts/${KEY}`, { text: 42 }, 400, "must be a string"],
    ["a missing text", `/prompts/${KEY}`, {}, 400, "text"],
    ["an extra field", `/prompts/${KEY}`, { text: "{context}", note: 1 }, 400, "unknown field(s): note"],
    ["a missing required placeholder", `/prompts/${KEY}`, { text: "no context here" }, 400, "{context} is missing"],
    ["an unknown placeholder", `/prompts/${KEY}`, { text: "{context} {weather}" }, 400, "unknown placeholder {weather}"],
    ["a text over the limit", `/prompts/${KEY}`, { text: "{context}" + "x".repeat(MAX_PROMPT_CHARS) }, 400, `at most ${MAX_PROMPT_CHARS}`],
    ["an array body", `/prompts/${KEY}`, ["{context}"], 400, "JSON object"],
    ["broken JSON", `/prompts/${KEY}`, '{"text": ', 400, "not valid JSON"],
  ])("refuses %s with an error naming it", async (_name, path, body, status, message) => {
    const { call } = await admin();
    const res = await call("PUT", path, body);
    expect(res.status).toBe(status);
    expect((await res.json()).error.message).toContain(message);
    expect((await (await call("GET", `/prompts/${KEY}`)).json()).override).toBeNull();
  });

  it("limits writes to 10 a minute per token, with Retry-After", async () => {
    const { call } = await admin();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await call("PUT", `/prompts/${KEY}`, { text: `take ${i} {context}` })).status);
    const limited = await call("DELETE", `/prompts/${KEY}`);

    expect(statuses).toEqual(Array(10).fill(200));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe("rate_limited");
    expect((await call("GET", `/prompts/${KEY}`)).status).toBe(200);
  });
});

describe("admin flow graph", () => {
  it("derives the seed's §3.9 pipeline view from the compiled graph", async () => {
    const { call } = await admin();
    const flow = await (await call("GET", "/flow-graph")).json();
    const ids = flow.nodes.map((n: any) => n.id).sort();
    const edge = (s: string, t: string) => flow.edges.find((e: any) => e.source === `node:${s}` && e.target === `node:${t}`);

    const debate = flow.nodes
      .filter((n: any) => n.stage === "debate")
      .map((n: any) => n.id)
      .sort();
    const debateEdges = flow.edges.filter((e: any) => e.source.startsWith("node:debate_"));

    // /debatt's stage, then one per subgraph format, as its definition draws it.
    expect(flow.stages).toEqual([
      { id: "debate", label: "Debatt", color: "amber" },
      ...SUBGRAPH_FORMATS.map((id) => ({ id, label: FORMAT_DEFINITIONS[id].drawing.label, color: FORMAT_DEFINITIONS[id].drawing.color })),
    ]);
    expect(flow.stages).toEqual(
      expect.arrayContaining([
        { id: "debate", label: "Debatt", color: "amber" },
        { id: "compare", label: "Jämförelse", color: "sky" },
        { id: "vote", label: "Omröstning", color: "emerald" },
        { id: "revise", label: "Revidering", color: "violet" },
        { id: "deep", label: "Djupdebatt", color: "rose" },
        { id: "council", label: "Råd", color: "slate" },
        { id: "rank", label: "Rangordning", color: "teal" },
      ]),
    );
    expect(debate).toEqual(
      [
        "debate_convergence",
        "debate_domain_planner",
        "debate_oneseek_agent",
        "debate_person_turn",
        "debate_round_1",
        "debate_round_2",
        "debate_round_3",
        "debate_round_4_voting",
        "debate_round_executor",
        "debate_synthesizer",
        "debate_turn",
        "debate_voice_pipeline",
      ].map((id) => `node:${id}`),
    );
    // A simultaneous debate's round: every turn at once, then back to the executor.
    expect(edge("debate_round_executor", "debate_turn")).toMatchObject({ label: "--order simultaneous ×N", conditional: true });
    expect(edge("debate_turn", "debate_round_executor")).toBeDefined();
    // The person who joined: their turn in a step of its own, which waits for them.
    expect(edge("debate_round_executor", "debate_person_turn")).toMatchObject({ label: "--with-me", conditional: true });
    expect(edge("debate_person_turn", "debate_round_executor")).toBeDefined();
    const inStage = (stage: string) =>
      flow.nodes
        .filter((n: any) => n.stage === stage)
        .map((n: any) => n.id)
        .sort();
    expect(inStage("compare")).toEqual(["node:compare_answer", "node:compare_complete", "node:compare_planner"]);
    expect(inStage("vote")).toEqual(
      [
        "vote:deliberation_answer",
        "vote:deliberation_ballot",
        "vote:deliberation_title",
        "vote_anonymize",
        "vote_declare_winner",
        "vote_planner",
        "vote_tally",
        "vote_tiebreak",
      ].map((id) => `node:${id}`),
    );
    expect(inStage("revise")).toHaveLength(9);
    expect(inStage("deep")).toEqual(
      ["deep:deliberation_answer", "deep:deliberation_title", "deep_anonymize", "deep_argue", "deep_moderate", "deep_planner", "deep_synthesize"].map(
        (id) => `node:${id}`,
      ),
    );
    expect(edge("deep_moderate", "deep_argue")).toMatchObject({ conditional: true, label: "nästa runda ×N" });
    expect(inStage("council")).toEqual(
      ["council:deliberation_title", "council_consolidate", "council_judge", "council_planner", "council_review"].map((id) => `node:${id}`),
    );
    expect(edge("council_review", "council_judge")).toMatchObject({ conditional: true, label: "--debate: runda 2 ×N" });
    expect(inStage("moa")).toEqual(
      ["moa:deliberation_answer", "moa:deliberation_title", "moa_aggregate", "moa_layer", "moa_planner", "moa_proposal"].map((id) => `node:${id}`),
    );
    expect(edge("moa_layer", "moa_proposal")).toMatchObject({ conditional: true, label: "nästa lager ×N" });
    // Every node is in a stage: /debatt's or a format's.
    expect(ids).toHaveLength(debate.length + SUBGRAPH_FORMATS.reduce((n, f) => n + inStage(f).length, 0));
    expect(edge("revise_anonymize", "revise_revision")).toMatchObject({ conditional: true, label: "×N" });
    expect(edge("vote_anonymize", "vote:deliberation_ballot")).toMatchObject({ conditional: true, label: "×N" });
    expect(edge("vote_tally", "vote_tiebreak")).toMatchObject({ conditional: true, label: "oavgjort" });
    expect(edge("vote_declare_winner", "vote:deliberation_title")).toBeDefined();
    expect(debateEdges).toHaveLength(16);
    expect(edge("compare_planner", "compare_answer")).toMatchObject({ conditional: true });
    expect(edge("compare_answer", "compare_complete")).toBeDefined();
    for (const [s, t] of [
      ["debate_domain_planner", "debate_round_executor"],
      ["debate_domain_planner", "debate_oneseek_agent"],
      ["debate_oneseek_agent", "debate_round_1"],
      ["debate_round_executor", "debate_round_1"],
      ["debate_round_1", "debate_round_2"],
      ["debate_round_2", "debate_round_3"],
      ["debate_round_3", "debate_round_4_voting"],
      ["debate_round_4_voting", "debate_convergence"],
      ["debate_convergence", "debate_synthesizer"],
    ])
      expect(edge(s, t), `${s} -> ${t}`).toBeDefined();
    expect(edge("debate_round_executor", "debate_voice_pipeline")).toMatchObject({ conditional: true, label: "/dvoice" });
    expect(edge("debate_domain_planner", "debate_oneseek_agent").label).toBe("OneSeek");
  });
});
