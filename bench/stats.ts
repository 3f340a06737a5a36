/** Small statistics the benchmarks share. */

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  return Number.isInteger(mid) ? (s[mid - 1] + s[mid]) / 2 : s[Math.floor(mid)];
}
