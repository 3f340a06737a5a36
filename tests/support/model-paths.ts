import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The two small GGUF models `scripts/fetch-models.sh` caches, with their exact sizes in bytes. */
export const cachedModels = {
  /** SmolLM2-135M-Instruct, Q4_1 (Apache-2.0), with its own ChatML template in the GGUF. */
  smollm2: { file: "SmolLM2-135M-Instruct.Q4_1.gguf", bytes: 98_362_432 },
  /** Gemma 3 270M, the pretrained base model, Q4_K_M (Gemma Terms of Use); no template in the GGUF. */
  gemma3: { file: "gemma-3-270m-q4_k_m.gguf", bytes: 253_113_024 },
} as const;

/**
 * Three seats on the two cached models, as the real-model tests and `npm run eval:real` seat them:
 * named as real models are (a long name breaks a card's header first), an odd number so that two
 * answers cannot tie a plain majority. Two seats share SmolLM2, so their answers are alike.
 */
export const REAL_ROSTER = [
  { key: "call_smol", display: "SmolLM2 135M Instruct", model: "smollm2" },
  { key: "call_gemma", display: "Gemma 3 270M", model: "gemma3" },
  { key: "call_smol_b", display: "SmolLM2 Second Seat", model: "smollm2" },
];

/** A model id of `cachedModels` (`smollm2`, `gemma3`). */
export type CachedModelId = keyof typeof cachedModels;

/** Where `scripts/fetch-models.sh` keeps the weights: `$DEBATT_MODELS_DIR`, or `~/.cache/debatt-models`. */
export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEBATT_MODELS_DIR || join(homedir(), ".cache", "debatt-models");
}

/**
 * The paths of the cached .gguf files by model id, or undefined when either is missing or has the
 * wrong size (not fetched yet, or cut short), so that a test can skip with `missingModelsReason`.
 * Checks sizes only: the fetch script verified the sha256 when it wrote them.
 */
export function modelPaths(env: NodeJS.ProcessEnv = process.env): Record<CachedModelId, string> | undefined {
  const dir = modelsDir(env);
  const paths = {} as Record<CachedModelId, string>;
  for (const [id, { file, bytes }] of Object.entries(cachedModels) as [CachedModelId, { file: string; bytes: number }][]) {
    const path = join(dir, file);
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size !== bytes) return undefined;
    paths[id] = path;
  }
  return paths;
}

/** Why the real-model tests skip when `modelPaths()` is undefined, naming the command that fixes it. */
export function missingModelsReason(env: NodeJS.ProcessEnv = process.env): string {
  return `the model weights are not in ${modelsDir(env)} (run scripts/fetch-models.sh)`;
}
