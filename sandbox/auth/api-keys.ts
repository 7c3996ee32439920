import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { SandboxDb } from "../db";
import { apiKeys } from "../db/resources-schema";
import { idPrefixes } from "@/lib/contract";

// Secrets are stored as SHA-256 digests. A slow hash (scrypt) protects low-entropy passwords; issued secrets are 32
// random bytes, which no one can brute-force from a fast digest, and a fast digest keeps per-request auth cheap
// (every request is authenticated). Digests are compared with timingSafeEqual, which needs equal lengths: digests
// always are, so no length leaks either.

export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

export interface IssuedKey {
  id: string;
  secret: string;
}

/** Creates a new API key and returns its secret (shown once; only its digest is stored). */
export async function createApiKey(db: SandboxDb, label: string | null = null): Promise<IssuedKey> {
  const id = `${idPrefixes.api_key}${randomBytes(12).toString("base64url")}`;
  const secret = randomBytes(32).toString("base64url");
  await db.insert(apiKeys).values({ id, secret_hash: hashSecret(secret).toString("hex"), label });
  return { id, secret };
}

/** Makes the configured demo key valid (inserting it, or updating its secret when the configuration changed). */
export async function ensureApiKey(db: SandboxDb, key: IssuedKey, label: string): Promise<void> {
  const secretHash = hashSecret(key.secret).toString("hex");
  await db
    .insert(apiKeys)
    .values({ id: key.id, secret_hash: secretHash, label })
    .onConflictDoUpdate({ target: apiKeys.id, set: { secret_hash: sql`excluded.secret_hash` } });
}

/**
 * Looks key digests up once and keeps them: keys are never changed in place except by ensureApiKey at start-up,
 * which runs before requests are served. A key created later (by the CLI) is found on its first use.
 */
export class ApiKeyStore {
  private readonly digests = new Map<string, Buffer>();

  constructor(private readonly db: SandboxDb) {}

  private async digestOf(id: string): Promise<Buffer | undefined> {
    const cached = this.digests.get(id);
    if (cached) return cached;
    const [row] = await this.db.select({ hash: apiKeys.secret_hash }).from(apiKeys).where(eq(apiKeys.id, id));
    if (!row) return undefined;
    const digest = Buffer.from(row.hash, "hex");
    this.digests.set(id, digest);
    return digest;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.digestOf(id)) !== undefined;
  }

  /** True when `secret` is the secret of key `id`. */
  async verify(id: string, secret: string): Promise<boolean> {
    const expected = await this.digestOf(id);
    const given = hashSecret(secret);
    // Compare even for an unknown key, so the answer takes the same time either way.
    return timingSafeEqual(given, expected ?? hashSecret(`${secret}\u0000`)) && expected !== undefined;
  }
}
