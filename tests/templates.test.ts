import { FORMAT_IDS } from "../state/formats.js";
import { afterEach, describe, expect, it } from "vitest";
import { TEMPLATES_KEY, TemplatesStore } from "../providers/templates-store.js";
import { MemoryValueStore } from "../providers/voice-settings-store.js";
import { translate } from "../state/messages/index.js";
import { parseTemplateOverrides } from "../state/templates.js";
import { ZodError } from "zod";
import { testDeps } from "./support/harness.js";
import { startApp } from "./support/http.js";

const ADMIN = "admin-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function app(values = new MemoryValueStore()) {
  const { deps, logs } = testDeps({ settings: { adminToken: ADMIN } });
  deps.templates = new TemplatesStore(values, deps.log);
  const started = await startApp(deps);
  closers.push(started.close);
  const get = async (query = "", headers: Record<string, string> = {}) => {
    const res = await fetch(`${started.url}/api/v1/templates${query}`, { headers });
    return {
      status: res.status,
      body: (await res.json()) as {
        lang: string;
        formats: { format: string; command: string; items: string[]; custom: boolean }[];
        error?: { code: string; message: string };
      },
    };
  };
  const put = async (body: unknown, token = ADMIN) => {
    const res = await fetch(`${started.url}/api/v1/admin/templates`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { overrides: unknown; error?: { code: string; message: string } } };
  };
  return { ...started, get, put, logs };
}

const itemsOf = (body: Awaited<ReturnType<Awaited<ReturnType<typeof app>>["get"]>>["body"], format: string) => body.formats.find((f) => f.format === format)!;

describe("suggested topics for an empty chat", () => {
  it("suggests the catalogues' topics per format, in the reader's language", async () => {
    const { get } = await app();
    const en = await get("?lang=en");
    expect(en.body.lang).toBe("en");
    expect(en.body.formats.map((f) => f.format)).toEqual(FORMAT_IDS);
    expect(itemsOf(en.body, "debatt")).toEqual({
      format: "debatt",
      command: "/debatt",
      items: [translate("en", "template.debatt.1"), translate("en", "template.debatt.2")],
      custom: false,
    });
    // From the browser's language when not asked.
    expect(itemsOf((await get("", { "accept-language": "sv-SE" })).body, "vote").items[0]).toBe("Vilket programspråk passar bäst för ett webb-API?");
    expect((await get("?lang=fi")).body.error?.code).toBe("invalid_lang");
  });

  it("shows what admins set instead, per language and format, refuses what does not fit, and goes back to the defaults", async () => {
    const { get, put } = await app();
    expect((await put({ en: { vote: ["Tabs or spaces?"] } }, "wrong-token-0123456789")).status).toBe(401);
    const saved = await put({ en: { vote: ["Tabs or spaces?", "  Vim or Emacs?  "], council: [] } });
    expect(saved.status).toBe(200);
    expect(saved.body.overrides).toEqual({ en: { vote: ["Tabs or spaces?", "Vim or Emacs?"], council: [] } });
    const en = (await get("?lang=en")).body;
    expect(itemsOf(en, "vote")).toMatchObject({ items: ["Tabs or spaces?", "Vim or Emacs?"], custom: true });
    expect(itemsOf(en, "council").items).toEqual([]);
    expect(itemsOf(en, "debatt").custom).toBe(false);
    // Swedish keeps its defaults.
    expect(itemsOf((await get("?lang=sv")).body, "vote").custom).toBe(false);

    // Through the API (admin writes are limited to 10 a minute), then every other case on the parser.
    const proto = JSON.parse('{"__proto__": {"vote": ["x"]}}') as object;
    for (const bad of [{ en: { chess: ["e4?"] } }, proto]) {
      const refused = await put(bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.error?.code).toBe("invalid_settings");
    }
    const nestedProto = JSON.parse('{"en": {"__proto__": ["x"]}}') as object;
    for (const bad of [
      { fi: { vote: ["Kumpi?"] } },
      nestedProto,
      { en: { vote: [""] } },
      { en: { vote: ["two\nlines"] } },
      { en: { vote: ["x".repeat(301)] } },
      { en: { vote: Array(11).fill("q") } },
      ["not an object"],
    ]) {
      expect(() => parseTemplateOverrides(bad), JSON.stringify(bad)).toThrow(ZodError);
    }
    const reset = await put({});
    expect(reset.body, JSON.stringify(reset.body)).toMatchObject({ overrides: {} });
    expect(itemsOf((await get("?lang=en")).body, "vote").custom).toBe(false);
  });

  it("shows the defaults, and says so in the log, when the stored value no longer fits", async () => {
    const values = new MemoryValueStore();
    await values.setValue(TEMPLATES_KEY, "{not json");
    const { get, logs } = await app(values);
    expect(itemsOf((await get("?lang=en")).body, "debatt").custom).toBe(false);
    expect(logs.some((l) => l.includes("do not fit their schema"))).toBe(true);
  });
});
