import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { SandboxDb } from "../db";
import { sandboxSecrets } from "../db/resources-schema";

const name = "token_signing_key";

/**
 * The HS256 key that signs the sandbox's JWTs (API bearer tokens and card access tokens): SANDBOX_TOKEN_SECRET when
 * set, else generated once and kept in the database, so tokens stay valid across restarts of a persisted sandbox.
 */
export async function loadSigningKey(db: SandboxDb, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(sandboxSecrets)
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(sandboxSecrets).where(eq(sandboxSecrets.name, name));
  if (!row) throw new Error("the token signing key could not be stored");
  return new TextEncoder().encode(row.value);
}
