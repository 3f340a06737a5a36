import { DebattError } from "../state/errors.js";
import { sameApiBase, VoiceSettingsSchema, type VoiceSettings } from "../state/voice.js";
import { SecretBox, SecretError } from "./secret-box.js";

/** The Redis key of the voice settings. */
export const VOICE_SETTINGS_KEY = "debate:voice_settings";

/** Where the settings JSON lives: Redis (RedisPromptStore) or process memory. */
export interface ValueStore {
  getValue(key: string): Promise<string | null>;
  setValue(key: string, value: string): Promise<void>;
}

/** Values in process memory, for a single instance without Redis. */
export class MemoryValueStore implements ValueStore {
  private readonly values = new Map<string, string>();
  async getValue(key: string): Promise<string | null> {
    return this.values.get(key) ?? null;
  }
  async setValue(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
}

/** Storing an API key needs an encryption key; this says which variable to set. */
export class EncryptionKeyMissingError extends DebattError {
  constructor() {
    super(
      "encryption_key_missing",
      "refusing to store api_key unencrypted: set SETTINGS_ENCRYPTION_KEY (32 bytes, as 64 hex characters or base64) to store it encrypted at rest",
    );
  }
}

/** Voice settings as admins see them: the api_key masked. */
export type MaskedVoiceSettings = Omit<VoiceSettings, "api_key"> & { api_key: string; api_key_set: boolean };

/** `sk-…wxyz`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string): string {
  return key ? `••••${key.slice(-4)}` : "";
}

/**
 * The /dvoice settings admins edit: validated with VoiceSettingsSchema and stored as JSON
 * under `debate:voice_settings`, the api_key sealed with AES-256-GCM. Without an encryption key an
 * api_key is refused, never stored in the clear. Loaded at every /dvoice run.
 */
export class VoiceSettingsStore {
  private readonly box: SecretBox | undefined;

  constructor(
    private readonly values: ValueStore,
    encryptionKey: string | undefined,
    /** Defaults for fields admins never set (e.g. TTS_BASE_URL as api_base). */
    private readonly defaults: Partial<VoiceSettings> = {},
    /** The host the operator's key (TTS_API_KEY) is for, when there is one: it is sent nowhere else. */
    private readonly environmentKeyBase?: string,
  ) {
    this.box = encryptionKey ? new SecretBox(encryptionKey) : undefined;
  }

  /** The settings in force, api_key decrypted. */
  async load(): Promise<VoiceSettings> {
    const raw = await this.values.getValue(VOICE_SETTINGS_KEY);
    if (!raw) return VoiceSettingsSchema.parse(this.defaults);
    const stored = JSON.parse(raw) as Record<string, unknown>;
    const sealed = typeof stored.api_key === "string" ? stored.api_key : "";
    if (sealed && !this.box) throw new SecretError("the stored api_key is encrypted but SETTINGS_ENCRYPTION_KEY is not set");
    return VoiceSettingsSchema.parse({ ...this.defaults, ...stored, api_key: sealed ? this.box!.open(sealed) : "" });
  }

  /** The settings for the admin API, api_key masked. */
  async masked(): Promise<MaskedVoiceSettings> {
    return mask(await this.load());
  }

  /**
   * Replaces the settings. An absent api_key, or the masked one sent back, keeps the stored key;
   * `""` removes it. Throws the zod error (naming the fields) or EncryptionKeyMissingError.
   */
  async save(input: Record<string, unknown>): Promise<MaskedVoiceSettings> {
    const current = await this.load();
    const keepKey = input.api_key === undefined || input.api_key === maskKey(current.api_key);
    const settings = VoiceSettingsSchema.parse({ ...this.defaults, ...input, api_key: keepKey ? current.api_key : input.api_key });
    // The stored key goes only to the host it was given for: a new api_base needs the key again.
    if (keepKey && current.api_key && settings.api_base !== current.api_base) {
      throw new DebattError(
        "api_key_required",
        `api_base changes from ${current.api_base} to ${settings.api_base}: send api_key again (the stored key is never sent to another host), or "" to remove it`,
      );
    }
    // Nor is the operator's key from the environment: without a key of its own, another host is refused.
    if (!settings.api_key && this.environmentKeyBase && !sameApiBase(settings.api_base, this.environmentKeyBase)) {
      throw new DebattError(
        "api_key_required",
        `api_base ${settings.api_base} needs an api_key of its own: the key from TTS_API_KEY is only ever sent to ${this.environmentKeyBase}`,
      );
    }
    if (settings.api_key && !this.box) throw new EncryptionKeyMissingError();
    const stored = { ...settings, api_key: settings.api_key ? this.box!.seal(settings.api_key) : "" };
    await this.values.setValue(VOICE_SETTINGS_KEY, JSON.stringify(stored));
    return mask(settings);
  }
}

function mask(settings: VoiceSettings): MaskedVoiceSettings {
  return { ...settings, api_key: maskKey(settings.api_key), api_key_set: settings.api_key !== "" };
}
