import type { ArmResult } from "../state/evaluation/report.js";
import type { Translate } from "../state/messages/index.js";

/** Escapes text for SVG. */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * An SVG chart per task: accuracy (with its 95 % interval as a bar) against cost per question, one
 * point per arm. Without known costs (simulated or unpriced models) the x axis is tokens per
 * question instead, and says so.
 */
export function chartOf(results: ArmResult[], t: Translate): string {
  const tasks = [...new Set(results.map((r) => r.task))];
  const byCost = results.some((r) => r.cost_per_question_usd > 0);
  const xOf = (r: ArmResult) => (byCost ? r.cost_per_question_usd : r.tokens_per_question);
  const maxX = Math.max(...results.map(xOf), 1e-9);
  const [w, h, pad] = [520, 300, 48];
  const panels = tasks.map((task, i) => {
    const rows = results.filter((r) => r.task === task);
    const x = (v: number) => pad + (v / maxX) * (w - 2 * pad);
    const y = (v: number) => h - pad - v * (h - 2 * pad);
    const points = rows
      .map(
        (r) =>
          `<line x1="${x(xOf(r))}" x2="${x(xOf(r))}" y1="${y(r.ci_low)}" y2="${y(r.ci_high)}" stroke="#94a3b8"/>` +
          `<circle cx="${x(xOf(r))}" cy="${y(r.accuracy)}" r="4" fill="#1e40af"/>` +
          `<text x="${x(xOf(r)) + 6}" y="${y(r.accuracy) - 6}" font-size="10">${esc(r.arm)}</text>`,
      )
      .join("");
    const axes =
      `<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#000"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="#000"/>` +
      `<text x="${w / 2}" y="${h - 12}" font-size="11" text-anchor="middle">${esc(t(byCost ? "eval.chartCost" : "eval.chartTokens"))}</text>` +
      `<text x="12" y="${h / 2}" font-size="11" transform="rotate(-90 12 ${h / 2})" text-anchor="middle">${esc(t("eval.chartAccuracy"))}</text>` +
      `<text x="${w / 2}" y="20" font-size="13" text-anchor="middle">${esc(task)}</text>` +
      `<text x="${pad - 4}" y="${y(1) + 4}" font-size="9" text-anchor="end">100 %</text><text x="${pad - 4}" y="${y(0) + 4}" font-size="9" text-anchor="end">0 %</text>` +
      // The x axis's ends: nothing, and the most any arm spent per question.
      `<text x="${x(0)}" y="${h - pad + 12}" font-size="9" text-anchor="middle">0</text>` +
      `<text x="${x(maxX)}" y="${h - pad + 12}" font-size="9" text-anchor="middle">${esc(byCost ? `$${maxX.toPrecision(2)}` : String(Math.round(maxX)))}</text>`;
    return `<g transform="translate(0 ${i * h})">${axes}${points}</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h * tasks.length}" font-family="sans-serif">${panels.join("")}</svg>\n`;
}
