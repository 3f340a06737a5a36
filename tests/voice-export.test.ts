import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import wavefile from "wavefile";
import { afterEach, describe, expect, it } from "vitest";
import { AudioArchive } from "../providers/audio-archive.js";
import { installed } from "../providers/installed.js";
import { FakeSpeech } from "./support/fake-speech.js";
import { VoiceRuns } from "../nodes/debatt/lib/voice-runs.js";
import { defaultVoiceSettings } from "../state/voice.js";
import { defaultRoster } from "../state/participants.js";
import { testDeps } from "./support/harness.js";
import { postChat, readSse, startApp, type SseEvent } from "./support/http.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function voiceServer(speechLatencyMs = 0, keep = 20, ignoreSignal = false) {
  const speech = new FakeSpeech(() => ({ latencyMs: speechLatencyMs, ignoreSignal }));
  const { deps } = testDeps();
  deps.speech = () => speech;
  deps.audio = new AudioArchive(mkdtempSync(join(tmpdir(), "debatt-audio-")), () => {}, keep);
  const app = await startApp(deps);
  cleanups.push(app.close);
  return { app, speech };
}

const debateIdOf = (events: SseEvent[]) => events.find((e) => e.event === "debate-init")!.data.debate_id as string;
const streamedPcm = (events: SseEvent[]) =>
  Buffer.concat(events.filter((e) => e.event === "debate-voice-chunk").map((e) => Buffer.from(e.data.pcm_b64, "base64")));

describe("audio export", () => {
  it("returns the whole debate as WAV, equal to the streamed chunks, without calling TTS again", async () => {
    const { app, speech } = await voiceServer();
    const { events } = await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));
    const calls = speech.requests.length;

    const res = await fetch(`${app.url}/api/v1/debates/${debateIdOf(events)}/audio.wav`);
    const body = Buffer.from(await res.arrayBuffer());
    const wav = new wavefile.WaveFile(body);

    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    expect(wav.fmt).toMatchObject({ sampleRate: 24_000, bitsPerSample: 16, numChannels: 1 });
    expect(body.subarray(44).equals(streamedPcm(events))).toBe(true);
    expect(streamedPcm(events).length).toBeGreaterThan(0);
    expect(speech.requests.length).toBe(calls);
  });

  it("answers 409 while the debate is still speaking and 404 for an unknown debate", async () => {
    const { app } = await voiceServer(150);
    let during: Promise<Response> | undefined;
    let debateId = "";
    const { events } = await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }), (e) => {
      if (e.event === "debate-init") debateId = e.data.debate_id;
      if (e.event === "debate-voice-chunk" && !during) during = fetch(`${app.url}/api/v1/debates/${debateId}/audio.wav`);
    });

    const busy = await during!;
    expect(busy.status).toBe(409);
    expect((await busy.json()).error.code).toBe("still_speaking");
    expect((await fetch(`${app.url}/api/v1/debates/${debateIdOf(events)}/audio.wav`)).status).toBe(200);
    const unknown = await fetch(`${app.url}/api/v1/debates/00000000-0000-0000-0000-000000000000/audio.wav`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toContain("no audio for debate");
    expect((await fetch(`${app.url}/api/v1/debates/..%2F..%2Fetc/audio.wav`)).status).toBe(404);
  });

  it("exports a /dvoice run that was stopped: what was spoken until the stop, complete once the stream has ended", async () => {
    // A speech engine that does not hear the stop: its sentences still arrive afterwards.
    const { app } = await voiceServer(150, 20, true);
    let stopping: Promise<Response> | undefined;
    let debateId = "";
    let nextSpeaker = false;
    const { events } = await readSse(
      await postChat(app.url, { message: "/dvoice Should schools ban phones?", participants: ["call_grok", "call_claude"] }),
      (e) => {
        if (e.event === "debate-init") debateId = e.data.debate_id;
        // Stopped while the first answer is spoken and the next speaker has begun: the step that made the voice queue is over.
        if (e.event === "debate-participant-start" && e.data.position === 2) nextSpeaker = true;
        if (e.event === "debate-voice-chunk" && nextSpeaker && !stopping) stopping = fetch(`${app.url}/api/v1/debates/${debateId}/cancel`, { method: "POST" });
      },
    );
    expect((await stopping!).status).toBe(202);
    expect(events.at(-3)).toMatchObject({ event: "error", data: { code: "cancelled" } });
    // Speech still in flight when the run stopped is not added afterwards: the export completes.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const res = await fetch(`${app.url}/api/v1/debates/${debateId}/audio.wav`);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeGreaterThan(44);
    // The archive holds what was generated before the stop: at least what reached the client, in the same order.
    const streamed = streamedPcm(events);
    expect(body.subarray(44, 44 + streamed.length).equals(streamed)).toBe(true);
  });

  it("stops a debate's speech and closes its recording when the run is stopped after the step that began them", async () => {
    const appended: number[] = [];
    const finished: string[] = [];
    const speech = new FakeSpeech(() => ({ latencyMs: 50, ignoreSignal: true }));
    const runs = new VoiceRuns({
      speech: () => speech,
      settings: async () => defaultVoiceSettings(),
      recorder: { append: (_id, pcm) => appended.push(pcm.length), finish: async (id) => void finished.push(id) },
      parallelism: 2,
    });
    // The step that makes the queue has its own signal, which never aborts once the step is over;
    // the run's signal is the one LangGraph keeps for the whole run.
    const run = new AbortController();
    const config = { signal: new AbortController().signal, configurable: { __pregel_abort_signals: { externalAbortSignal: run.signal } }, writer: () => {} };
    const queue = (await runs.queueFor("d-1", "Should schools ban phones?", config, () => {}))!;
    queue.enqueue(defaultRoster()[0], 1, "One sentence. Two sentences. Three sentences.");
    run.abort();
    expect(finished).toEqual(["d-1"]);
    const before = appended.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Speech that was still in flight is not added to the closed recording.
    expect(appended.length).toBe(before);
  });

  it("serves MP3 when an encoder is installed, and says what to install when not", async () => {
    const { app } = await voiceServer();
    const { events } = await readSse(await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }));
    const res = await fetch(`${app.url}/api/v1/debates/${debateIdOf(events)}/audio.mp3`);
    const hasEncoder = ["ffmpeg", "lame"].some(installed);
    if (hasEncoder) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("audio/mpeg");
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    } else {
      expect(res.status).toBe(501);
      expect((await res.json()).error.message).toContain("ffmpeg or lame");
    }
  });

  it("closes the recording of a cancelled debate, so what was spoken can still be exported", async () => {
    const { app, speech } = await voiceServer(100);
    const client = new AbortController();
    let debateId = "";
    const { events } = await readSse(
      await postChat(app.url, { message: "/dvoice Bör AI regleras?", participants: ["call_grok", "call_claude"] }, { signal: client.signal }),
      (e) => {
        if (e.event === "debate-init") debateId = e.data.debate_id;
        if (e.event === "debate-voice-chunk") client.abort();
      },
    );
    await new Promise((r) => setTimeout(r, 300));
    const calls = speech.requests.length;

    const res = await fetch(`${app.url}/api/v1/debates/${debateId}/audio.wav`);
    const archived = Buffer.from(await res.arrayBuffer()).subarray(44);
    const streamed = streamedPcm(events);
    expect(res.status).toBe(200);
    expect(streamed.length).toBeGreaterThan(0);
    // The archive holds what was generated: at least what reached the client, in the same order.
    expect(archived.subarray(0, streamed.length).equals(streamed)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(speech.requests.length).toBe(calls); // nothing more is synthesised for a cancelled debate
  });

  it("keeps only the most recent debates' audio", async () => {
    const { app } = await voiceServer(0, 2);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { events } = await readSse(await postChat(app.url, { message: `/dvoice Ämne ${i}`, participants: ["call_grok", "call_claude"] }));
      ids.push(debateIdOf(events));
    }
    const statuses = await Promise.all(ids.map(async (id) => (await fetch(`${app.url}/api/v1/debates/${id}/audio.wav`)).status));
    expect(statuses).toEqual([404, 200, 200]);
  });
});
