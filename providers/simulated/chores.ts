import { clientTaskOf } from "../../state/client-tasks.js";
import { detectLanguage } from "../../state/language.js";
import { headline } from "../../state/text.js";
import { simulatedTitle, termsOf } from "./question.js";

/**
 * A chat client's chore as the simulated internal model answers it (see `clientTaskOf`), in the
 * question's language, from its words: a whole title, its noun phrases as tags, three follow-up
 * questions, the question as its search query, an emoji. So a demo without a key shows a client's
 * titles, tags and suggestions as a real model would fill them.
 */
export function simulatedChore(topic: string, prompt: string): string {
  const kind = clientTaskOf([{ role: "user", text: prompt }])?.kind ?? "title";
  const sv = detectLanguage(topic) === "sv";
  const terms = termsOf(topic);
  switch (kind) {
    case "tags": {
      const tags = [...new Set(terms.map((t) => t.core.charAt(0).toUpperCase() + t.core.slice(1)))].slice(0, 3);
      return JSON.stringify({ tags: tags.length > 0 ? tags : [sv ? "Allmänt" : "General"] });
    }
    case "follow_ups": {
      const [first, second] = [terms[0]?.text, terms[1]?.text ?? terms[0]?.text];
      // A bare noun, its determiner left in the question ("Which database…"), reads as one with "the";
      // Swedish, which would inflect it instead, asks around it.
      const bare = (text: string) => /^\p{Ll}[\p{Ll}-]*$/u.test(text);
      const en = (text: string) => (bare(text) ? `the ${text}` : text);
      const ask = sv
        ? [
            !first ? "Vilka är riskerna?" : bare(first) ? `Vilka är riskerna när det gäller ${first}?` : `Vilka är riskerna med ${first}?`,
            !second ? "Vad ändrar svaret?" : bare(second) ? `Hur ändras svaret beroende på ${second}?` : `Hur ändrar ${second} svaret?`,
            "Hur skulle ett första steg se ut?",
          ]
        : [
            first ? `What are the risks of ${en(first)}?` : "What are the risks?",
            second ? `How does ${en(second)} change the answer?` : "What would change the answer?",
            "What would a first step look like?",
          ];
      return JSON.stringify({ follow_ups: ask });
    }
    case "queries":
      return JSON.stringify({ queries: [headline(topic)] });
    case "emoji":
      return "🤔";
    default:
      return JSON.stringify({ title: simulatedTitle(topic) });
  }
}
