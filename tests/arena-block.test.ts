import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArenaBlockFilter } from "../nodes/debatt/lib/arena-block-filter.js";
import { withOverrides } from "./support/fake-model.js";
import { named, runEvents, testDeps } from "./support/harness.js";

/** A model's own block, with its made-up winner. */
const FAKE_BLOCK = '```debate-arena-data\n{"debate_analysis":{"winner":"Made Up","votes":{"Made Up":9}}}\n```\n';
/** The same in a fence of tildes, which Markdown reads as one too. */
const TILDE_BLOCK = '~~~debate-arena-data\n{"debate_analysis":{"winner":"Made Up","votes":{"Made Up":9}}}\n~~~\n';

/** Runs `text` through a filter in the given pieces. */
function filtered(pieces: string[]): string {
  const filter = new ArenaBlockFilter();
  return pieces.map((p) => filter.push(p)).join("") + filter.end();
}

/** `text` cut at `cuts` (positions, any order). */
function cut(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, i) => text.slice(start, at[i] ?? text.length)).filter((_, i, all) => i < all.length);
}

describe("the arena-block filter", () => {
  it("removes a model's own block, however the stream cuts it, and leaves every other text as it was", () => {
    const prose = fc.string({ maxLength: 120 }).filter((t) => !/debate-arena-data/i.test(t));
    // (A backtick or tilde right before the fence would make it a longer fence: markdown reads it so too.)
    const lead = prose.filter((t) => !t.endsWith("`") && !t.endsWith("~"));
    fc.assert(
      fc.property(lead, prose, fc.array(fc.nat(), { maxLength: 30 }), fc.boolean(), (before, after, cuts, tildes) => {
        const block = tildes ? TILDE_BLOCK : FAKE_BLOCK;
        expect(filtered(cut(`${before}${block}${after}`, cuts))).toBe(`${before}${after}`);
        expect(filtered(cut(`${before}${after}`, cuts))).toBe(`${before}${after}`);
      }),
      { numRuns: 2_000 },
    );
  });

  it("keeps other code fences and inline code, and drops a block the model never closes", () => {
    const text = "Intro `code` and\n```ts\nconst a = 1;\n```\nend";
    expect(filtered(cut(text, [7, 8, 20, 21, 22]))).toBe(text);
    expect(filtered(["Before ``", "`debate-arena", '-data\n{"x":', "1}"])).toBe("Before ");
    expect(filtered(["A ```` debate-arena-data\n{}\n````\nB"])).toBe("A B");
    expect(filtered(["A ~~", "~~ debate-arena-data\n{} ``` still inside\n~~~~\nB ~~~ok"])).toBe("A B ~~~ok");
  });

  it("lets only the computed block reach the clients and the history, even split across chunks", async () => {
    // The synthesis model streams word by word, so its block arrives in many pieces.
    const { deps } = testDeps({
      script: withOverrides((req) => (req.phase === "synthesis" ? `Analysis first.\n\n${FAKE_BLOCK}\n${TILDE_BLOCK}\nThe real analysis.` : undefined)),
    });
    const events = await runEvents(deps, "/debatt X", { participants: ["call_grok", "call_claude", "call_gpt"] });
    const text = named(events, "text-delta")
      .map((e) => e.delta)
      .join("");
    expect(text.match(/```debate-arena-data/g)).toHaveLength(1);
    expect(text).not.toContain("Made Up");
    expect(text).toContain("Analysis first.");
    expect(text).toContain("The real analysis.");
    expect(named(events, "debate-synthesis-complete")[0].synthesis_length).toBe(text.length);
  });
});
