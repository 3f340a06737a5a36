import { DebattError } from "../state/errors.js";
import { PromptError, PromptSet, validatePromptText } from "./render.js";

/** What `/healthz` reports about a prompt store. */
export interface StoreHealth {
  /** `memory` (one process) or `redis` (shared by every instance). */
  backend: "memory" | "redis";
  /** False while the backend is unreachable: debates then run on the default prompts. */
  ok: boolean;
  /** The backend's connection state, e.g. ioredis' `ready` or `reconnecting`. */
  state: string;
}

/** Where admins' prompt overrides live: in process memory, or in Redis (providers/redis-prompt-store.ts). */
export interface PromptStore {
  /** Every stored override, by key. Throws StoreUnavailableError while the backend is down. */
  all(): Promise<Record<string, string>>;
  /** Stores an override (already validated by the caller or by `setOverride`). */
  set(key: string, text: string): Promise<void>;
  /** Removes an override: the key reverts to its default. */
  delete(key: string): Promise<void>;
  /** The store's backend and whether it is reachable now. */
  health(): StoreHealth;
  /** Releases connections (graceful shutdown). */
  close(): Promise<void>;
}

/** The store's backend cannot be reached; admin writes answer 503 and debates use the defaults. */
export class StoreUnavailableError extends DebattError {
  constructor(message: string, options?: ErrorOptions) {
    super("store_unavailable", message, options);
  }
}

/** A PromptStore in process memory, for a single instance without Redis. */
export class InMemoryPromptStore implements PromptStore {
  private readonly overrides = new Map<string, string>();
  async all(): Promise<Record<string, string>> {
    return Object.fromEntries(this.overrides);
  }
  async set(key: string, text: string): Promise<void> {
    this.overrides.set(key, text);
  }
  async delete(key: string): Promise<void> {
    this.overrides.delete(key);
  }
  health(): StoreHealth {
    return { backend: "memory", ok: true, state: "ready" };
  }
  async close(): Promise<void> {}
}

/** Validates and stores an override; throws a PromptError listing every problem. */
export async function setOverride(store: PromptStore, key: string, text: unknown): Promise<void> {
  const problems = validatePromptText(key, text);
  if (problems.length > 0) throw new PromptError(problems.join("; "));
  await store.set(key, text as string);
}

/**
 * Loads the prompts of one run: per-run overrides win over stored ones, stored ones over defaults.
 * Per-run overrides are validated like stored ones. A store that fails leaves the defaults in force
 * (reported through `onStoreError`) so a debate never stops because overrides are unreachable.
 */
export async function loadPromptSet(
  store: PromptStore,
  runOverrides: Record<string, string> = {},
  onStoreError: (err: Error) => void = () => {},
): Promise<PromptSet> {
  const problems = Object.entries(runOverrides).flatMap(([k, v]) => validatePromptText(k, v));
  if (problems.length > 0) throw new PromptError(`prompt_overrides: ${problems.join("; ")}`);
  let stored: Record<string, string> = {};
  try {
    stored = await store.all();
  } catch (err) {
    onStoreError(err as Error);
  }
  return new PromptSet({ ...stored, ...runOverrides });
}
