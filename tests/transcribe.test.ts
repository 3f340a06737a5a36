import { afterEach, describe, expect, it } from "vitest";
import { OpenAITranscriber } from "../providers/stt-openai.js";
import { startFakeTranscription } from "./support/fake-servers.js";
import { testDeps } from "./support/harness.js";
import { startApp } from "./support/http.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The app with a transcriber on a fake endpoint (`reply`), or none. */
async function app(reply?: Parameters<typeof startFakeTranscription>[0], withKey = true) {
  const fake = await startFakeTranscription(reply);
  closers.push(fake.close);
  const { deps } = testDeps();
  if (withKey) deps.transcriber = new OpenAITranscriber({ apiKey: "sk-stt", baseUrl: fake.baseURL, model: "whisper-1" });
  const started = await startApp(deps);
  closers.push(started.close);
  const post = (body: BodyInit, type = "audio/webm;codecs=opus") =>
    fetch(`${started.url}/api/v1/transcribe`, { method: "POST", headers: { "content-type": type }, body });
  const refusal = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];
  return { ...started, fake, post, refusal };
}

describe("spoken questions: POST /api/v1/transcribe", () => {
  it("sends the recording to the OpenAI-compatible endpoint and answers its text", async () => {
    const { url, fake, post } = await app();
    expect(await (await fetch(`${url}/api/v1/transcribe`)).json()).toEqual({ available: true });
    const recording = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4, 5]);
    const res = await post(recording);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: "Should cities ban cars?" });
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]).toMatchObject({ authorization: "Bearer sk-stt", model: "whisper-1", file: { name: "question.webm", type: "audio/webm" } });
    expect(fake.seen[0].file.bytes.equals(recording)).toBe(true);
  });

  it("refuses what is not a recording, says when there is no key, and when the endpoint fails", async () => {
    const { post, refusal, fake } = await app(() => ({ status: 500 }));
    expect(await refusal(await post("hello", "text/plain"))).toEqual([415, "unsupported_media_type"]);
    expect(await refusal(await post(new Uint8Array(0)))).toEqual([400, "invalid_body"]);
    expect(await refusal(await post(new Uint8Array(11 * 1024 * 1024)))).toEqual([413, "payload_too_large"]);
    const failed = await post(Buffer.from([1, 2, 3]), "audio/wav");
    expect(failed.status).toBe(502);
    const body = (await failed.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("stt_failed");
    expect(body.error.message).toContain("answered 500");
    expect(fake.seen[0].file.name).toBe("question.wav");

    // An endpoint that cannot be reached is the endpoint's failure too.
    const unreachable = await app();
    await unreachable.fake.close();
    const down = await unreachable.post(Buffer.from([1, 2, 3]));
    expect(down.status).toBe(502);
    expect(((await down.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "stt_failed",
      message: expect.stringContaining("cannot be reached"),
    });

    const keyless = await app(undefined, false);
    expect(await (await fetch(`${keyless.url}/api/v1/transcribe`)).json()).toEqual({ available: false });
    expect(await keyless.refusal(await keyless.post(Buffer.from([1])))).toEqual([501, "stt_unavailable"]);
    expect(keyless.fake.seen).toHaveLength(0);
  });

  it("takes at most 20 recordings a minute from one user", async () => {
    const { post, refusal } = await app();
    for (let i = 0; i < 20; i++) expect((await post(Buffer.from([i + 1]))).status).toBe(200);
    expect(await refusal(await post(Buffer.from([1])))).toEqual([429, "rate_limited"]);
  });
});
