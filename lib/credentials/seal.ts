import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing of stored bank credentials. The sealed form is `v1.<iv>.<tag>.<ciphertext>` (base64url). The
 * environment name is bound in as additional authenticated data, so a sandbox secret copied into the production row
 * does not decrypt.
 */
export class SealError extends Error {}

export class MissingEncryptionKeyError extends Error {
  constructor() {
    super("CREDENTIALS_ENCRYPTION_KEY is not set: saved bank credentials cannot be read or written");
  }
}

/** Reads a 32-byte key given as 64 hex digits or as base64. */
export function parseEncryptionKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) throw new SealError("CREDENTIALS_ENCRYPTION_KEY must be 32 bytes (64 hex digits or base64)");
  return key;
}

export function seal(plaintext: string, key: Buffer, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function unseal(sealed: string, key: Buffer, context: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new SealError("stored credentials are not in a known sealed format");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("stored credentials cannot be decrypted: wrong CREDENTIALS_ENCRYPTION_KEY or tampered data");
  }
}
