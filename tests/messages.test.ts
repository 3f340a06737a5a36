import { describe, expect, it } from "vitest";
import { CATALOGUES, pickLang, translate } from "../state/messages/index.js";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the message catalogues", () => {
  it("have the same keys in English and Swedish, each with the same placeholders and a text", () => {
    const { en, sv } = CATALOGUES;
    expect(Object.keys(sv).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(sv[key]), key).toEqual(placeholders(en[key]));
      expect(sv[key].trim(), key).not.toBe("");
    }
  });

  it("fill placeholders and pick the reader's language", () => {
    expect(translate("en", "voice.speaking", { speaker: "Grok" })).toBe("Speaking: Grok");
    expect(translate("sv", "voice.speaking", { speaker: "Grok" })).toBe("Talar: Grok");
    expect(pickLang(["sv-SE", "en-US"])).toBe("sv");
    expect(pickLang(["de-DE", "en-GB"])).toBe("en");
    expect(pickLang(["sv_SE.UTF-8"])).toBe("sv");
    expect(pickLang(["fr", undefined, "C.UTF-8"])).toBe("en");
  });
});
