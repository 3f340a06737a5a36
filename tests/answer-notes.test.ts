import { describe, expect, it } from "vitest";
import { StreamReader } from "../providers/stream-reader.js";
import { MARKDOWN_STYLES } from "../service/narration.js";
import { createNarrator } from "../service/narrator.js";
import { notesText } from "../service/narrator-notes.js";
import { withoutOpenedThinking, withSources } from "../state/answer.js";
import type { ClientEvent } from "../state/events.js";
import { translate } from "../state/messages/index.js";
import { addUsage, NO_USAGE, type Usage } from "../state/usage.js";
import { withNotes } from "../web/card.js";

const en = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate("en", key, values);
const at = "2026-11-27T00:00:00.000Z";

describe("an answer's sources in Markdown", () => {
  it("links each [n] to its source and lists them; an address that is not the web's is never a link", () => {
    const sources = [{ url: "https://example.org/a", title: "A *report*" }, { url: "javascript:alert(1)" }];
    expect(withSources("Sant [1], se även [2] och [3]; [1](x) är redan en länk.", sources)).toBe(
      "Sant [\\[1\\]](<https://example.org/a>), se även [2] och [3]; [1](x) är redan en länk.\n\n- \\[1\\] [A \\*report\\*](<https://example.org/a>)\n- \\[2\\] javascript:alert(1)",
    );
    expect(withSources("Utan källor [1].", undefined)).toBe("Utan källor [1].");
  });

  it("links citations side by side (Perplexity's [1][2]), and leaves code and escaped markers as written", () => {
    const sources = [{ url: "https://example.org/a" }, { url: "https://example.org/b" }];
    const [text] = withSources("Båda [1][2]. Kod: `a[1]` och\n```\nb[2]\n```\nsamt \\[1].", sources).split("\n\n- ");
    expect(text).toBe("Båda [\\[1\\]](<https://example.org/a>)[\\[2\\]](<https://example.org/b>). Kod: `a[1]` och\n```\nb[2]\n```\nsamt \\[1].");
  });
});

describe("an answer's notes as the narrators tell them", () => {
  const hostile = { url: "javascript:alert(1)", title: "<img src=x onerror=alert(1)> \u001b]8;;x\u0007 [click](http://evil)" };

  it("tells a source's title as plain text and only a web address as one, with no control character", () => {
    const text = notesText({ sources: [hostile, { url: "https://example.org/a b", title: "Fine" }] }, MARKDOWN_STYLES, en);
    expect(text).not.toMatch(/(?<!\\)<img|<javascript|\u001b|\u0007|(?<!\\)\]\(http/);
    expect(text).toContain("\\<img src=x onerror=alert(1)\\>");
    expect(text).toContain("- [2] Fine <https://example.org/a%20b>");
  });

  it("keeps the thinking a chat template opened itself out of /compare's result", () => {
    let result = "";
    const narrate = createNarrator((s, part) => void (part === "result" && (result += s)), MARKDOWN_STYLES, en);
    const who = { model: "Llama", model_key: "call_l" };
    const events = [
      { event: "compare-answer-start", data: { ...who, timestamp: at } },
      { event: "compare-answer-delta", data: { ...who, delta: "Riskerna först.</th", timestamp: at } },
      { event: "compare-answer-delta", data: { ...who, delta: "ink>\n\nSvaret.", timestamp: at } },
      { event: "compare-answer-end", data: { ...who, word_count: 1, latency_ms: 5, status: "ok", reasoning: "Riskerna först.", timestamp: at } },
    ] as ClientEvent[];
    events.forEach(narrate);
    expect(result).toContain("Svaret.");
    expect(result).not.toMatch(/Riskerna|think>/);
  });

  it("leaves a card's text alone without reasoning, and trims the template's thinking with it", () => {
    const card = { text: "Tänker.</think>\n\nSvaret.", status: "ok" as const };
    expect(withNotes(card, {}).text).toBe(card.text);
    expect(withNotes(card, { reasoning: "Tänker." }).text).toBe("Svaret.");
    expect(withoutOpenedThinking("<think>a</think> b")).toBe("<think>a</think> b");
  });
});

describe("Perplexity's citations", () => {
  it("keep their order and repeats, so that [n] is the n-th, titled from the search results", () => {
    const reader = new StreamReader();
    reader.read({
      search_results: [
        { url: "https://a.example/", title: "A" },
        { url: "https://b.example/", title: "B" },
      ],
      citations: ["https://b.example/", "https://a.example/", "https://b.example/"],
      choices: [{ delta: { content: "x [3]" } }],
    });
    reader.read({ choices: [{ delta: {}, finish_reason: "stop" }] });
    expect(reader.end(true).sources).toEqual([
      { url: "https://b.example/", title: "B" },
      { url: "https://a.example/", title: "A" },
      { url: "https://b.example/", title: "B" },
    ]);
  });
});

describe("a usage stored before reasoning tokens were counted", () => {
  it("adds up as none", () => {
    const old = { calls: 1, input_tokens: 10, output_tokens: 5, cached_tokens: 0, cost_usd: 0.1, unpriced_calls: 0 } as unknown as Usage;
    expect(addUsage(old, { ...NO_USAGE, calls: 1, reasoning_tokens: 3 }).reasoning_tokens).toBe(3);
    expect(addUsage(NO_USAGE, old).reasoning_tokens).toBe(0);
  });
});

describe("a model whose chat template opens its think block itself", () => {
  const read = (assume: boolean, pieces: string[]) => {
    let live = "";
    const reader = new StreamReader({ text: (d) => (live += d) }, assume);
    for (const content of pieces) reader.read({ choices: [{ delta: { content } }] });
    const answer = reader.end(true);
    return { live, answer };
  };

  it("shows the thinking live the first time, until the end tag says what it was", () => {
    const { live, answer } = read(false, ["Tänker ", "länge.</th", "ink>\n\nSvaret."]);
    expect(live).toBe("Tänker länge.</think>\n\nSvaret.");
    expect(answer).toMatchObject({ text: "Svaret.", reasoning: "Tänker länge.", templateThinking: true });
  });

  it("once known, holds the thinking back and streams only the answer", () => {
    const { live, answer } = read(true, ["Tänker ", "länge.</th", "ink>\n\nSvar", "et."]);
    expect(live).toBe("Svaret.");
    expect(answer).toMatchObject({ text: "Svaret.", reasoning: "Tänker länge.", templateThinking: true });
  });

  it("gives an answer that never closed a block as the answer, at its end", () => {
    const { live, answer } = read(true, ["Bara ", "svaret."]);
    expect(live).toBe("Bara svaret.");
    expect(answer.text).toBe("Bara svaret.");
    expect(answer.reasoning).toBe("");
    expect(answer.templateThinking).toBeUndefined();
  });
});
