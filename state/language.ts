/** The languages the offline texts (simulated answers, fallback synthesis) are written in. */
export type Lang = "sv" | "en";

/** Swedish if the text has å/ä/ö or common Swedish words, else English. */
export function detectLanguage(text: string): Lang {
  if (/[åäö]/i.test(text)) return "sv";
  return /\b(och|att|är|bör|ska|inte|det|för|med|vad|hur|varför|som)\b/i.test(text) ? "sv" : "en";
}
