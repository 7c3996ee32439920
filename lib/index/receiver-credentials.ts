import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import { seal, unseal } from "@/lib/credentials/seal";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";
import { receiverUsername } from "./console-webhooks";

/** The Basic credentials the bank sends with every notification to the console's receiver. */
export interface ReceiverCredentials {
  username: string;
  secret: string;
  /** A new random name at each rotation; each subscription records the one it was registered with. */
  keyId: string;
}

const sealContext = (environment: Environment) => `receiver:${environment}`;

function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

const newKeyId = () => `rcv_${randomBytes(8).toString("hex")}`;

export async function loadReceiverCredentials(db: ConsoleDb, environment: Environment, key: Buffer): Promise<ReceiverCredentials | null> {
  const [row] = await db.select().from(schema.receiverCredentials).where(eq(schema.receiverCredentials.environment, environment));
  if (!row) return null;
  return { username: row.username, secret: unseal(row.sealedSecret, key, sealContext(environment)), keyId: row.keyId };
}

/** The environment's receiver credentials, generated on first use (a concurrent first use keeps one of them). */
export async function ensureReceiverCredentials(db: ConsoleDb, environment: Environment, key: Buffer, actor: string): Promise<ReceiverCredentials> {
  await db
    .insert(schema.receiverCredentials)
    .values({
      environment,
      username: receiverUsername(environment),
      keyId: newKeyId(),
      sealedSecret: seal(newSecret(), key, sealContext(environment)),
      createdBy: actor,
    })
    .onConflictDoNothing();
  return (await loadReceiverCredentials(db, environment, key))!;
}

/** A new secret (and key id): notifications signed with the old one are refused from now on. */
export async function rotateReceiverCredentials(db: ConsoleDb, environment: Environment, key: Buffer, actor: string): Promise<ReceiverCredentials> {
  const sealedSecret = seal(newSecret(), key, sealContext(environment));
  const keyId = newKeyId();
  await db
    .insert(schema.receiverCredentials)
    .values({ environment, username: receiverUsername(environment), keyId, sealedSecret, createdBy: actor })
    .onConflictDoUpdate({
      target: schema.receiverCredentials.environment,
      set: { sealedSecret, keyId, createdAt: sql`now()`, createdBy: actor },
    });
  return (await loadReceiverCredentials(db, environment, key))!;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether an `Authorization` header carries exactly these Basic credentials. Both sides are hashed to a fixed length
 * first, so the comparison takes the same time whatever was sent (no length or prefix leaks).
 */
export function basicAuthorizationMatches(header: string | null, expected: ReceiverCredentials | null): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(header?.trim() ?? "");
  const presented = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
  const wanted = expected ? `${expected.username}:${expected.secret}` : "";
  const equal = timingSafeEqual(digest(presented), digest(wanted));
  return equal && match !== null && expected !== null;
}
