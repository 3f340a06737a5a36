import type { LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import { biasWords, leaderboardSummary, type Lang, type Translate } from "../state/messages/index.js";

/** The leaderboard as the terminal prints it: the summary, a table of ratings, the biases, the method. */
export function leaderboardText(t: Translate, lang: Lang, report: LeaderboardReport): string {
  const lines = [t("leaderboard.title"), leaderboardSummary(t, report)];
  if (report.ballots === 0) return `${[...lines, "", t("leaderboard.none")].join("\n")}\n`;
  if (report.simulated_ballots > 0) lines.push(t("leaderboard.simulated", { n: report.simulated_ballots }));
  const rows = [
    [t("leaderboard.rank"), t("leaderboard.model"), t("leaderboard.rating"), t("leaderboard.interval"), t("leaderboard.won")],
    ...report.models.map((m, i) => [
      String(i + 1),
      m.model,
      String(Math.round(m.score)),
      `${Math.round(m.low)}–${Math.round(m.high)}`,
      t("leaderboard.wonOf", { wins: m.wins, appearances: m.appearances }),
    ]),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...r[c]].length)));
  // Text columns to the left, numbers to the right.
  const cell = (text: string, c: number) => (c === 1 ? text.padEnd(widths[c]) : text.padStart(widths[c]));
  lines.push("", ...rows.map((r) => r.map(cell).join("  ").trimEnd()), "", t("leaderboard.biasesTitle"));
  for (const f of report.biases) lines.push(`  ${biasWords(t, lang, f)}`);
  lines.push("", t("leaderboard.method"));
  return `${lines.join("\n")}\n`;
}
