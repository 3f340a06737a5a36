/** Edits (insertions, deletions, substitutions) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/** The vendor of a model id: what comes before its `/` (`x-ai/grok-4` → `x-ai`), or nothing. */
const vendorOf = (id: string) => (id.includes("/") ? id.slice(0, id.indexOf("/")).toLowerCase() : "");

/**
 * The listed model id nearest to `missing` among those of the same vendor (a retired id's
 * successor, a misspelt one's intended: `x-ai/grok-4` → `x-ai/grok-4.1`), or undefined when the
 * endpoint lists none of that vendor. Ties go to the newer-looking id (the later in sort order).
 */
export function nearestModel(missing: string, listed: Iterable<string>): string | undefined {
  const vendor = vendorOf(missing);
  let best: { id: string; d: number } | undefined;
  for (const id of [...listed].sort()) {
    if (vendorOf(id) !== vendor) continue;
    const d = distance(missing.toLowerCase(), id.toLowerCase());
    if (!best || d <= best.d) best = { id, d };
  }
  return best?.id;
}
