import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { DebattError } from "../state/errors.js";

/** A secret could not be encrypted or decrypted: no key, a wrong key, or tampered data. */
export class SecretError extends DebattError {
  constructor(message: string) {
    super("secret_error", message);
  }
}

/**
 * Encrypts secrets at rest with AES-256-GCM (random 96-bit IV, 128-bit tag), as
 * `v1:<iv>:<tag>:<ciphertext>` in base64. The 32-byte key comes from the environment, as 64 hex
 * characters or base64.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: string) {
    const bytes = /^[0-9a-f]{64}$/i.test(key) ? Buffer.from(key, "hex") : Buffer.from(key, "base64");
    if (bytes.length !== 32) throw new SecretError("the encryption key must be 32 bytes: 64 hex characters or base64");
    this.key = bytes;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(":");
    if (version !== "v1" || !iv || !tag || data === undefined) throw new SecretError("not an encrypted secret");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretError("the secret cannot be decrypted: wrong SETTINGS_ENCRYPTION_KEY or tampered data");
    }
  }
}
