import { modelNames, type LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import { biasWords, formatCount, leaderboardSummary, type Lang, type Translate } from "../state/messages/index.js";

/**
 * The leaderboard as the terminal prints it: the summary, a table of ratings (each model by the
 * name its runs showed, as the page names it), the biases, the method. Counts are grouped as the
 * language writes them.
 */
export function leaderboardText(t: Translate, lang: Lang, report: LeaderboardReport): string {
  const lines = [t("leaderboard.title"), leaderboardSummary(t, report, lang)];
  if (report.ballots === 0) return `${[...lines, "", t("leaderboard.none")].join("\n")}\n`;
  if (report.simulated_ballots > 0) lines.push(t("leaderboard.simulated", { n: formatCount(lang, report.simulated_ballots) }));
  const names = modelNames(report.models);
  const rows = [
    [t("leaderboard.rank"), t("leaderboard.model"), t("leaderboard.rating"), t("leaderboard.interval"), t("leaderboard.won")],
    ...report.models.map((m, i) => [
      String(i + 1),
      names.get(m.model) ?? m.model,
      String(Math.round(m.score)),
      `${Math.round(m.low)}–${Math.round(m.high)}`,
      t("leaderboard.wonOf", { wins: formatCount(lang, m.wins), appearances: formatCount(lang, m.appearances) }),
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
