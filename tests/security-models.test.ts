import { describe, expect, it } from "vitest";
import { loadSettings, type Settings } from "../state/config.js";
import { named, runEvents, testDeps } from "./support/harness.js";
import { postChat, postDeliberate, readSse, startApp } from "./support/http.js";

/**
 * Every model call costs money: a request may name only the roster's models (by key, name or
 * model id), and other model ids only when admins allow them in ALLOWED_MODELS.
 */
describe("the model allowlist", () => {
  it("reads ALLOWED_MODELS: none by default, a comma list, or *", () => {
    expect(loadSettings({}).allowedModels).toEqual([]);
    expect(loadSettings({ ALLOWED_MODELS: " openai/o3, ,meta/llama-4 " }).allowedModels).toEqual(["openai/o3", "meta/llama-4"]);
    expect(loadSettings({ ALLOWED_MODELS: "*" }).allowedModels).toBe("*");
  });

  async function deliberate(settings: Partial<Settings>, body: unknown) {
    const { deps, models } = testDeps({ settings });
    const server = await startApp(deps);
    try {
      const res = await postDeliberate(server.url, body);
      const json = res.headers.get("content-type")?.startsWith("application/json") ? await res.json() : (await readSse(res)).events;
      return { status: res.status, json, calls: models.calls.length };
    } finally {
      await server.close();
    }
  }

  it("refuses a model id that is not on the roster with 400 unknown_model naming it, before any model is called", async () => {
    const r = await deliberate({}, { question: "Q?", mode: "vote", modeConfig: { councilModels: ["call_grok", "call_claude", "openai/o3"] } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("unknown_model");
    expect(r.json.error.message).toContain('"openai/o3"');
    expect(r.calls).toBe(0);
  });

  it("does not echo a 5 KB model id back, and refuses it as well", async () => {
    const long = `evil/${"x".repeat(5_000)}`;
    const r = await deliberate({}, { question: "Q?", mode: "deep", modeConfig: { models: ["call_grok", long] } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("unknown_model");
    expect(r.json.error.message.length).toBeLessThan(600);
    expect(r.json.error.message).toContain("5005 characters");
  });

  it("refuses an off-roster chairman too", async () => {
    const r = await deliberate({}, { question: "Q?", mode: "vote", modeConfig: { chairmanModel: "openai/o3" } });
    expect([r.status, r.json.error.code]).toEqual([400, "unknown_model"]);
  });

  it("takes the roster's models by key, name or model id", async () => {
    const r = await deliberate({}, { question: "Q?", mode: "vote", modeConfig: { councilModels: ["call_grok", "Claude", "openai/gpt-5"] } });
    expect(r.status).toBe(200);
    expect(r.json.map((e: { event: string }) => e.event)).toContain("winner-declared");
  });

  it("takes a listed model id, and any with *", async () => {
    const listed = await deliberate(
      { allowedModels: ["openai/o3"] },
      { question: "Q?", mode: "vote", modeConfig: { councilModels: ["call_grok", "call_claude", "OpenAI/o3"] } },
    );
    expect(listed.status).toBe(200);
    const other = await deliberate(
      { allowedModels: ["openai/o3"] },
      { question: "Q?", mode: "vote", modeConfig: { councilModels: ["call_grok", "call_claude", "openai/o4"] } },
    );
    expect(other.status).toBe(400);
    const any = await deliberate(
      { allowedModels: "*" },
      { question: "Q?", mode: "vote", modeConfig: { councilModels: ["call_grok", "call_claude", "openai/o4"] } },
    );
    expect(any.status).toBe(200);
  });

  it("applies on the chat stream's participants", async () => {
    const { deps, models } = testDeps();
    const server = await startApp(deps);
    try {
      const res = await postChat(server.url, { message: "/vote Q?", participants: ["call_grok", "call_claude", "meta/llama-4"] });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: "unknown_model", message: expect.stringContaining("meta/llama-4") });
      expect(models.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it("applies inside the graph too (a run started from Studio or the CLI): an error event, no model call", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/council X is true.", { modeConfig: { models: ["call_grok", "openai/o3"] } });
    expect(named(events, "error")[0]).toMatchObject({ code: "unknown_model" });
    expect(models.calls).toHaveLength(0);
  });
});
