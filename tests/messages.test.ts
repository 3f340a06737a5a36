import { describe, expect, it } from "vitest";
import { CATALOGUES, pickLang, translate } from "../state/messages/index.js";
import { ERROR_CODES } from "../state/errors.js";

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

  it("have words for every error code a run's events can carry", () => {
    // The codes of errors raised inside runs (the graph, the run service, replays); the rest are HTTP refusals.
    const inEvents = ["missing_topic", "empty_message", "unknown_option", "invalid_participants", "unknown_model", "too_few_answers", "all_models_failed", "all_votes_invalid", "chairman_failed", "mode_mismatch", "follow_up_unsupported", "all_debaters_failed", "all_judges_failed", "model_error", "timeout", "config_error", "prompt_error", "shutting_down", "write_failed", "replay_incomplete", "cancelled", "internal_error"];
    for (const code of inEvents) expect(ERROR_CODES, code).toContain(code);
    const usage = new Set(["missing_topic", "empty_message"]);
    for (const code of inEvents.filter((c) => !usage.has(c))) expect(Object.keys(CATALOGUES.en), code).toContain(`error.${code}`);
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
