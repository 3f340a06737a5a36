import { z } from "zod";

/**
 * The events' field names on the wire. The SSE contract's convention is snake_case (/debatt's
 * `model_key`, the stream's `thread_id`); the deliberation formats' payloads were declared in
 * camelCase (`modelKey`, `conversationId`). Every payload now carries each camelCase field under
 * its snake_case name too, with the same value; the camelCase names stay for one release as
 * deprecated aliases (docs/events.md), then go. Only the fields a schema declares are renamed: the
 * keys of a record (labels, participant keys) are data and stay as they are.
 */

/** A lowerCamelCase field name's snake_case form (`modelKey` → `model_key`); any other name as it is (`PASS`, `model`). */
export function snakeCase(name: string): string {
  return /^[a-z][a-z0-9]*[A-Z]/.test(name) ? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : name;
}

/** Adds the snake_case fields of a value of one schema; undefined when the schema declares no camelCase field anywhere. */
type Aliaser = (value: unknown) => unknown;

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; options?: z.ZodType[]; valueType?: z.ZodType };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The aliaser of one schema, compiled once from its declaration. */
export function aliaserOf(schema: z.ZodType): Aliaser | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return aliaserOf(def.innerType!);
    case "array": {
      const item = aliaserOf(def.element!);
      return item && ((v) => (Array.isArray(v) ? v.map(item) : v));
    }
    case "record": {
      const item = aliaserOf(def.valueType!);
      return item && ((v) => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, item(x)])) : v));
    }
    case "union": {
      // A value of a union gets the fields of whichever member declares them (the members' fields, merged).
      const members = def.options!.map(aliaserOf).filter((a): a is Aliaser => a !== undefined);
      return members.length === 0 ? undefined : (v) => members.reduce((acc, a) => a(acc), v);
    }
    case "object": {
      const fields = Object.entries(def.shape!).map(([name, field]) => ({ name, snake: snakeCase(name), inner: aliaserOf(field) }));
      const touched = fields.filter((f) => f.snake !== f.name || f.inner);
      if (touched.length === 0) return undefined;
      return (v) => {
        if (!isObject(v)) return v;
        const out: Record<string, unknown> = { ...v };
        for (const f of touched) {
          if (!(f.name in v)) continue;
          const value = f.inner ? f.inner(v[f.name]) : v[f.name];
          out[f.name] = value;
          out[f.snake] = value;
        }
        return out;
      };
    }
    default:
      return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The schema of a payload as it is sent: every camelCase field also under its snake_case name
 * (both required where the field is), nested objects alike, strictness kept. For the
 * events reference and for checking what a client receives.
 */
export function wireSchemaOf(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
      return wireSchemaOf(def.innerType!).optional();
    case "nullable":
      return wireSchemaOf(def.innerType!).nullable();
    case "default":
    case "readonly":
      // As sent, a defaulted or read-only field is the value it holds.
      return wireSchemaOf(def.innerType!);
    case "array":
      return z.array(wireSchemaOf(def.element!));
    case "record":
      return z.record(z.string(), wireSchemaOf(def.valueType!));
    case "union":
      return z.union(def.options!.map(wireSchemaOf) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case "object": {
      const object = schema as z.ZodObject;
      const shape: Record<string, z.ZodType> = {};
      for (const [name, field] of Object.entries(def.shape!)) {
        const wire = wireSchemaOf(field);
        shape[snakeCase(name)] = wire;
        if (snakeCase(name) !== name) shape[name] = wire.meta({ deprecated: true, description: `Deprecated alias of \`${snakeCase(name)}\`` });
      }
      const strict = (object._zod.def as { catchall?: z.ZodType }).catchall instanceof z.ZodNever;
      return strict ? z.strictObject(shape) : z.object(shape);
    }
    default:
      return schema;
  }
}
