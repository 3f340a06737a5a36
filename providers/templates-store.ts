import { parseTemplateOverrides, TemplateOverridesSchema, type TemplateOverrides } from "../state/templates.js";
import type { ValueStore } from "./voice-settings-store.js";

/** The key of the admins' suggestions, beside the voice settings (Redis, or process memory). */
export const TEMPLATES_KEY = "debate:templates";

/**
 * The suggested topics admins set, as JSON under `debate:templates`. What is stored is read
 * through the schema, so a value edited by hand that no longer fits gives the defaults rather than
 * a broken page (and the log says so).
 */
export class TemplatesStore {
  constructor(
    private readonly values: ValueStore,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async load(): Promise<TemplateOverrides> {
    const raw = await this.values.getValue(TEMPLATES_KEY);
    if (!raw) return {};
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
    const parsed = TemplateOverridesSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.log(`the stored suggested topics (${TEMPLATES_KEY}) do not fit their schema; the defaults are shown`);
    return {};
  }

  /** Replaces the suggestions; throws the zod error naming what is wrong. */
  async save(input: unknown): Promise<TemplateOverrides> {
    const overrides = parseTemplateOverrides(input);
    await this.values.setValue(TEMPLATES_KEY, JSON.stringify(overrides));
    return overrides;
  }
}
