/** Small statistics the benchmarks share. */

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  return Number.isInteger(mid) ? (s[mid - 1] + s[mid]) / 2 : s[Math.floor(mid)];
}

/** The `p`-th percentile of `xs` (nearest rank). */
export function percentile(xs: number[], p: number): number {
  return [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
}
