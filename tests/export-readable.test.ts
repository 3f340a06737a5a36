import { describe, expect, it } from "vitest";
import { analysisMarkdown, voteReplyMarkdown } from "../history/export-readable.js";
import { translate } from "../state/messages/index.js";

const en = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate("en", key, values);

describe("the Markdown export reads JSON a debate stored", () => {
  it("gives a debate vote's reply as its motivation and points, and leaves other text alone", () => {
    const reply = JSON.stringify({ voted_for: "Claude", short_motivation: "Concrete <b>examples</b>.", three_bullets: ["Clear", "Concrete"] });
    expect(voteReplyMarkdown(reply)).toBe("Concrete \\<b>examples\\</b>.\n\n- Clear\n- Concrete");
    expect(voteReplyMarkdown('{"voted_for": "Grok", "three_bullets": ["Only points"]}')).toBe("- Only points");
    // Not a vote's reply: the export shows the text as it is.
    expect(voteReplyMarkdown("VOTE: Response B because it is clearer.")).toBeNull();
    expect(voteReplyMarkdown('{"winner": "Grok"}')).toBeNull();
    expect(voteReplyMarkdown('{"voted_for": "Grok"}')).toBeNull();
  });

  it("gives a debate's analysis as named paragraphs and lists, and any other data as JSON", () => {
    const lines = analysisMarkdown(en, {
      merged_summary: "They met halfway.",
      overlap_score: 0.73,
      agreements: ["Examples matter"],
      disagreements: [],
      comparative_summary: "Goals differed.",
    });
    expect(lines?.join("\n")).toBe(
      "**In short:** They met halfway.\n\n**Where they agree:**\n\n- Examples matter\n\n**Compared:** Goals differed.\n\n**Overlap (0–1):** 0.73\n",
    );
    expect(analysisMarkdown(en, { merged_summary: "x", judges: 3 })).toBeNull();
    expect(analysisMarkdown(en, {})).toBeNull();
  });
});
