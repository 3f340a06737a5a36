import { afterEach, describe, expect, it } from "vitest";
import { speechFor } from "../service/deps.js";
import { SecretBox } from "../providers/secret-box.js";
import { MemoryValueStore, VOICE_SETTINGS_KEY, VoiceSettingsStore } from "../providers/voice-settings-store.js";
import { DEFAULT_VOICE_MAP } from "../state/voice.js";
import { startFakeSpeech } from "./support/fake-servers.js";
import { testDeps } from "./support/harness.js";
import { postChat, readSse, startApp } from "./support/http.js";

const TOKEN = "admin-token-0123456789";
const ENCRYPTION_KEY = "11".repeat(32);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function server(encryptionKey: string | null = ENCRYPTION_KEY) {
  const values = new MemoryValueStore();
  const { deps } = testDeps();
  deps.settings = { ...deps.settings, adminToken: TOKEN };
  deps.voiceSettings = new VoiceSettingsStore(values, encryptionKey ?? undefined);
  deps.speech = speechFor(deps.settings);
  const app = await startApp(deps);
  cleanups.push(app.close);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.url}/api/v1/admin/debate/${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  return { app, values, call };
}

describe("voice settings for admins", () => {
  it("answers the seed's defaults", async () => {
    const { call } = await server();
    const { status, body } = await call("GET", "voice-defaults");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      api_key: "",
      api_key_set: false,
      api_base: "https://api.openai.com/v1",
      model: "tts-1",
      speed: 1,
      voice_map: DEFAULT_VOICE_MAP,
      word_limits: { introduction: 300, argument: 500, deepening: 500 },
    });
    // Neither is set: the voice's own way (the local voice paces its openings, a speech API speaks whole answers unpaced).
    expect(body).not.toHaveProperty("pacing");
    expect(body).not.toHaveProperty("spoken");
  });

  it("stores the api_key encrypted, answers it only masked, and keeps it when it is not sent again", async () => {
    const { call, values } = await server();

    const put = await call("PUT", "voice-settings", {
      api_key: "sk-secret-key-wxyz",
      model: "tts-1-hd",
      speed: 1.5,
      voice_map: { Grok: "onyx" },
      instructions: { __default__: "Tala svenska." },
    });
    const raw = (await values.getValue(VOICE_SETTINGS_KEY))!;
    const again = await call("PUT", "voice-settings", { api_key: put.body.api_key, speed: 2 });
    const got = await call("GET", "voice-settings");

    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ api_key: "••••wxyz", api_key_set: true, model: "tts-1-hd", speed: 1.5 });
    expect(raw).not.toContain("sk-secret-key-wxyz");
    expect(new SecretBox(ENCRYPTION_KEY).open(JSON.parse(raw).api_key)).toBe("sk-secret-key-wxyz");
    expect(again.body).toMatchObject({ api_key: "••••wxyz", speed: 2, model: "tts-1" });
    expect(JSON.stringify(got.body)).not.toContain("sk-secret");
    expect((await call("PUT", "voice-settings", { api_key: "" })).body).toMatchObject({ api_key: "", api_key_set: false });
  });

  it("refuses to store an api_key without an encryption key, saying which variable to set", async () => {
    const { call, values } = await server(null);
    const refused = await call("PUT", "voice-settings", { api_key: "sk-secret" });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "encryption_key_missing", message: expect.stringContaining("SETTINGS_ENCRYPTION_KEY") });
    expect(await values.getValue(VOICE_SETTINGS_KEY)).toBeNull();
    expect((await call("PUT", "voice-settings", { speed: 0.5 })).status).toBe(200);
  });

  it.each([
    [{ speed: 5 }, "speed: speed must be at most 4"],
    [{ speed: "fast" }, "speed: speed must be a number"],
    [{ model: "tts-2" }, "model: model must be tts-1 or tts-1-hd"],
    [{ api_base: "ftp://tts.example" }, "api_base: api_base must be an http(s) URL"],
    [{ voice_map: { Grok: "" } }, "voice_map.Grok"],
    [{ colour: "blue" }, "colour"],
    [{ pacing: "slow" }, "pacing: pacing must be off or paced"],
    [{ word_limits: { introduction: 5 } }, "word_limits.introduction must be at least 20"],
    [{ word_limits: { argument: 2.5 } }, "word_limits.argument must be a whole number"],
    [{ word_limits: { deepening: 1000 } }, "word_limits.deepening must be at most 600"],
    [{ word_limits: { closing: 100 } }, "closing"],
  ])("names the field of invalid settings %j", async (body, message) => {
    const { call } = await server();
    const res = await call("PUT", "voice-settings", body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_settings");
    expect(res.body.error.message).toContain(message);
  });

  it("loads the settings at every /dvoice run: voice map, and the key for the speech endpoint", async () => {
    const tts = await startFakeSpeech(() => ({ bytes: 2_000 }));
    cleanups.push(tts.close);
    const { app, call } = await server();
    await call("PUT", "voice-settings", { api_key: "sk-tts-key", api_base: tts.baseURL, voice_map: { Grok: "onyx" } });

    const { events } = await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));

    const speakers = events.filter((e) => e.event === "debate-voice-speaker").map((e) => e.data);
    expect(speakers.find((s) => s.model === "Grok")).toMatchObject({ voice: "onyx", provider: "openai" });
    expect(speakers.find((s) => s.model === "Claude")).toMatchObject({ voice: "nova" });
    expect(tts.seen.length).toBeGreaterThan(0);
    expect(tts.seen.every((r) => r.headers.authorization === "Bearer sk-tts-key")).toBe(true);
    expect(events.filter((e) => e.event === "debate-voice-done")).toHaveLength(6);
  });
});

describe("the voice key stays where it was sent", () => {
  it("refuses a new api_base without the key again (400 api_key_required), so the stored key never reaches another host", async () => {
    const trusted = await startFakeSpeech(() => ({ bytes: 2_000 }));
    const other = await startFakeSpeech(() => ({ bytes: 2_000 }));
    cleanups.push(trusted.close, other.close);
    const { app, call } = await server();
    const saved = await call("PUT", "voice-settings", { api_key: "sk-tts-key", api_base: trusted.baseURL });
    expect(saved.status).toBe(200);

    for (const attempt of [
      { api_base: other.baseURL },
      { api_base: other.baseURL, api_key: saved.body.api_key }, // the masked key sent back counts as no key
      { model: "tts-1-hd" }, // no api_base: it would fall back to the default host
    ]) {
      const refused = await call("PUT", "voice-settings", attempt);
      expect(refused.status, JSON.stringify(attempt)).toBe(400);
      expect(refused.body.error.code).toBe("api_key_required");
      expect(refused.body.error.message).toContain("send api_key again");
    }
    expect((await call("GET", "voice-settings")).body).toMatchObject({ api_base: trusted.baseURL, api_key_set: true });

    await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));
    expect(trusted.seen.length).toBeGreaterThan(0);
    expect(other.seen).toHaveLength(0);

    // With the key sent again, or removed, the new host is taken.
    expect((await call("PUT", "voice-settings", { api_base: other.baseURL, api_key: "sk-other-key" })).body).toMatchObject({
      api_base: other.baseURL,
      api_key_set: true,
    });
    expect((await call("PUT", "voice-settings", { api_base: trusted.baseURL, api_key: "" })).body).toMatchObject({
      api_base: trusted.baseURL,
      api_key_set: false,
    });
    // Without a stored key there is nothing to protect: another host needs no key.
    expect((await call("PUT", "voice-settings", { api_base: other.baseURL })).status).toBe(200);
  });
});

describe("the operator's voice key (TTS_API_KEY) stays at its host", () => {
  it("refuses another api_base without a key of its own, and never sends the environment's key there", async () => {
    const trusted = await startFakeSpeech(() => ({ bytes: 2_000 }));
    const other = await startFakeSpeech(() => ({ bytes: 2_000 }));
    cleanups.push(trusted.close, other.close);
    const values = new MemoryValueStore();
    const { deps } = testDeps();
    deps.settings = { ...deps.settings, adminToken: TOKEN, ttsApiKey: "sk-env-key", ttsBaseUrl: trusted.baseURL };
    deps.voiceSettings = new VoiceSettingsStore(values, ENCRYPTION_KEY, { api_base: trusted.baseURL }, trusted.baseURL);
    deps.speech = speechFor(deps.settings);
    const app = await startApp(deps);
    cleanups.push(app.close);
    const put = async (body: unknown) => {
      const res = await fetch(`${app.url}/api/v1/admin/debate/voice-settings`, {
        method: "PUT",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };

    for (const attempt of [{ api_base: other.baseURL }, { api_base: other.baseURL, api_key: "" }]) {
      const refused = await put(attempt);
      expect(refused.status, JSON.stringify(attempt)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "api_key_required", message: expect.stringContaining("TTS_API_KEY") });
    }
    // Its own host, and another host with a key of its own, are fine.
    expect((await put({ api_base: `${trusted.baseURL}/`, model: "tts-1-hd" })).status).toBe(200);
    expect((await put({ api_base: other.baseURL, api_key: "sk-other-key" })).status).toBe(200);
    expect((await put({ api_base: trusted.baseURL, api_key: "" })).status).toBe(200);

    // Settings saved before this guard (another host, no key): the environment's key still does not go there.
    await values.setValue(VOICE_SETTINGS_KEY, JSON.stringify({ api_base: other.baseURL, api_key: "" }));
    await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));
    expect(other.seen).toHaveLength(0);
    await values.setValue(VOICE_SETTINGS_KEY, JSON.stringify({ api_base: trusted.baseURL, api_key: "" }));
    await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));
    expect(trusted.seen.length).toBeGreaterThan(0);
    expect(trusted.seen.every((r) => r.headers.authorization === "Bearer sk-env-key")).toBe(true);
  });
});
