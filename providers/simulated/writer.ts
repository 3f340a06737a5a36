/** A sentence bank per language. */
export type Bank = readonly string[];
export type ByLang<T> = { sv: T; en: T };

/** How many words a text has. */
export const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Writes one answer from sentence banks: fills the placeholders, draws in a seeded order, and never
 * uses a sentence twice in the same answer. A template that would name the same keyword twice
 * ("weigh “x” against “x”", when the question has one keyword) is skipped. Sentences in `soft`
 * (e.g. a judge's round-1 reply) are used only when nothing else is left.
 */
export class Writer {
  readonly used = new Set<string>();
  constructor(
    private readonly rnd: () => number,
    private readonly vars: Record<string, string>,
    private readonly soft: ReadonlySet<string> = new Set(),
  ) {}

  fill(template: string, extra: Record<string, string> = {}): string {
    return template.replace(/\{(\w+)\}/g, (_m, k: string) => extra[k] ?? (k === "tx" ? this.anyTerm() : this.vars[k]) ?? "");
  }

  /** `{tx}`: one of the question's words, most often the first (for sentences that name only one). */
  private anyTerm(): string {
    const r = this.rnd();
    return r < 0.55 ? this.vars.t1 : r < 0.85 ? this.vars.t2 : this.vars.t3;
  }

  /** A number in [0, n). */
  index(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private usable(template: string): boolean {
    const terms = [...new Set([...template.matchAll(/\{(t[123])\}/g)].map((m) => m[1]))].map((k) => this.vars[k]);
    return new Set(terms).size === terms.length;
  }

  /** Up to `n` sentences of the bank, in a seeded order, none used before in this answer. */
  draw(bank: Bank, n: number, extra: Record<string, string> = {}): string[] {
    const order = [...bank];
    for (let i = order.length - 1; i > 0; i--) {
      const j = this.index(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const filled = order
      .filter((t) => this.usable(t))
      .map((t) => this.fill(t, extra))
      .filter((s) => !this.used.has(s));
    const ranked = [...filled.filter((s) => !this.soft.has(s)), ...filled.filter((s) => this.soft.has(s))];
    const out = ranked.slice(0, n);
    for (const s of out) this.used.add(s);
    return out;
  }

  /** One sentence of the bank (a used one only if the bank has nothing else). */
  one(bank: Bank, extra: Record<string, string> = {}): string {
    return this.draw(bank, 1, extra)[0] ?? this.fill(bank.find((t) => this.usable(t)) ?? bank[0], extra);
  }
}
