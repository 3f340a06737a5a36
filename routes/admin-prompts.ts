import { Router } from "express";
import { promptDefinition, PROMPTS, type PromptDefinition } from "../prompts/registry.js";
import { setOverride, type PromptStore } from "../prompts/store.js";
import { HttpError } from "./errors.js";

/** How the admin API shows one prompt. */
export interface PromptView {
  key: string;
  description: string;
  placeholders: PromptDefinition["placeholders"];
  default: string;
  /** The stored override, or null when the default is in force. */
  override: string | null;
  /** The text debates use now. */
  effective: string;
}

function view(def: PromptDefinition, overrides: Record<string, string>): PromptView {
  const override = overrides[def.key] ?? null;
  return { key: def.key, description: def.description, placeholders: def.placeholders, default: def.default, override, effective: override ?? def.default };
}

function definitionOf(key: string): PromptDefinition {
  const def = promptDefinition(key);
  if (!def) throw new HttpError(404, "unknown_prompt", `unknown prompt key "${key}"; known keys: ${PROMPTS.map((p) => p.key).join(", ")}`);
  return def;
}

/**
 * The prompt registry for admins: list, read, override (validated) and revert. A write is stored
 * once and every instance picks it up for its next debate.
 */
export function adminPromptsRouter(store: PromptStore): Router {
  const router = Router();
  router.get("/prompts", async (_req, res) => {
    const overrides = await store.all();
    res.json({ prompts: PROMPTS.map((def) => view(def, overrides)) });
  });
  router.get("/prompts/:key", async (req, res) => {
    const def = definitionOf(req.params.key);
    res.json(view(def, await store.all()));
  });
  router.put("/prompts/:key", async (req, res) => {
    const def = definitionOf(req.params.key);
    if (!req.is("application/json")) throw new HttpError(415, "unsupported_media_type", 'the body must be JSON: {"text": "…"}');
    const body = req.body as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body) || !("text" in body)) {
      throw new HttpError(400, "invalid_body", 'the body must be a JSON object {"text": "…"}');
    }
    const extra = Object.keys(body).filter((k) => k !== "text");
    if (extra.length > 0) throw new HttpError(400, "invalid_body", `unknown field(s): ${extra.join(", ")}`);
    await setOverride(store, def.key, body.text);
    res.json(view(def, await store.all()));
  });
  router.delete("/prompts/:key", async (req, res) => {
    const def = definitionOf(req.params.key);
    await store.delete(def.key);
    res.json(view(def, await store.all()));
  });
  router.all(["/prompts", "/prompts/:key"], (req) => {
    const allow = req.params.key ? "GET, PUT, DELETE" : "GET";
    throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed here; use ${allow}`, { Allow: allow });
  });
  return router;
}
