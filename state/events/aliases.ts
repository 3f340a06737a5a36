/**
 * A payload without the snake_case aliases the wire adds beside its camelCase fields
 * (`model_key` beside `modelKey`), deep: the payload as the event schemas declare it. For the
 * page, whose reducers read the declared fields and keep payloads whole in their state. No zod
 * here: the page's bundle imports it. (A snake_case field without a camelCase twin is kept.)
 */
export function withoutAliases<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutAliases) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k.includes("_")) {
      // An alias has its camelCase twin's value; a record's key that only looks like one (`gpt_4o` beside `gpt4o`) does not.
      const camel = k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
      const twin = (value as Record<string, unknown>)[camel];
      if (camel !== k && camel in value && (twin === v || JSON.stringify(twin) === JSON.stringify(v))) continue;
    }
    out[k] = withoutAliases(v);
  }
  return out as T;
}
