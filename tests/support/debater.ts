import type { Reply } from "./fake-servers.js";

/** A three-participant roster (with OneSeek) for DEBATE_PARTICIPANTS. */
export const roster = JSON.stringify([
  { key: "call_grok", display: "Grok", model: "x-ai/grok-4" },
  { key: "call_claude", display: "Claude", model: "anthropic/claude-sonnet-4.5" },
  { key: "call_oneseek", display: "OneSeek", model: "internal/oneseek", oneseek: true },
]);

/** Answers like a debating model would, by what the prompt asks for. */
export function debater(body: any): Reply {
  // A message's content is text, or a list of text parts (a cache_control breakpoint for an Anthropic model).
  const all = body.messages.map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join(""))).join("\n");
  if (all.includes("Du planerar webbsökningar")) return { text: '{"queries": ["ai act status", "ai regulation sweden"]}' };
  if (all.includes("Du granskar sökresultat")) return { text: 'Keep these: {"keep": [0, 2], "note": "ok"}' };
  if (all.includes("Runda 4")) {
    const candidates = /Välj en av: ([^.]+)\./.exec(all)![1].split(", ");
    return { text: "```json\n" + JSON.stringify({ voted_for: candidates[0], short_motivation: "clear", three_bullets: ["1", "2", "3"] }) + "\n```" };
  }
  if (all.includes("Du analyserar en avslutad debatt"))
    return { text: '{"merged_summary": "m", "overlap_score": 0.5, "agreements": [], "disagreements": [], "conflicts": [], "comparative_summary": ""}' };
  if (all.includes("slutanalysen")) return { text: "## Sammanfattning\n\nBra debatt." };
  return { text: "Jag anser att frågan är viktig och att vi bör agera klokt." };
}
