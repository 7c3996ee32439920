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
  /** The secret the last rotation replaced, accepted too until `validUntil`; absent when none (or its overlap is over). */
  previous?: { secret: string; validUntil: Date };
}

const sealContext = (environment: Environment) => `receiver:${environment}`;

function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

const newKeyId = () => `rcv_${randomBytes(8).toString("hex")}`;

export async function loadReceiverCredentials(db: ConsoleDb, environment: Environment, key: Buffer): Promise<ReceiverCredentials | null> {
  const [row] = await db.select().from(schema.receiverCredentials).where(eq(schema.receiverCredentials.environment, environment));
  if (!row) return null;
  const credentials: ReceiverCredentials = {
    username: row.username,
    secret: unseal(row.sealedSecret, key, sealContext(environment)),
    keyId: row.keyId,
  };
  if (row.previousSealedSecret && row.previousValidUntil && row.previousValidUntil > new Date())
    credentials.previous = { secret: unseal(row.previousSealedSecret, key, sealContext(environment)), validUntil: row.previousValidUntil };
  return credentials;
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

/**
 * A new secret (and key id). The one it replaces is still accepted for `overlapMs` (INDEX_RECEIVER_SECRET_OVERLAP_MINUTES):
 * deliveries the bank already started, and subscriptions not yet re-registered, carry it; after that it is refused. A
 * second rotation within the overlap ends the first one's at once (only the secret just replaced is kept).
 */
export async function rotateReceiverCredentials(
  db: ConsoleDb,
  environment: Environment,
  key: Buffer,
  actor: string,
  overlapMs: number,
): Promise<ReceiverCredentials> {
  const sealedSecret = seal(newSecret(), key, sealContext(environment));
  const keyId = newKeyId();
  const previousValidUntil = new Date(Date.now() + overlapMs);
  await db
    .insert(schema.receiverCredentials)
    .values({ environment, username: receiverUsername(environment), keyId, sealedSecret, createdBy: actor })
    .onConflictDoUpdate({
      target: schema.receiverCredentials.environment,
      // In ON CONFLICT DO UPDATE, the table's name stands for the row being replaced: its secret becomes the previous one.
      set: {
        previousSealedSecret: sql.raw(`"receiver_credentials"."sealed_secret"`),
        previousValidUntil,
        sealedSecret,
        keyId,
        createdAt: sql`now()`,
        createdBy: actor,
      },
    });
  return (await loadReceiverCredentials(db, environment, key))!;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether an `Authorization` header carries exactly these Basic credentials: the current secret, or the previous one
 * until its overlap ends (`now`). Both sides are hashed to a fixed length first, and every accepted secret is compared,
 * so the comparison takes the same time whatever was sent (no length or prefix leaks, nor which secret matched).
 */
export function basicAuthorizationMatches(header: string | null, expected: ReceiverCredentials | null, now = new Date()): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(header?.trim() ?? "");
  const presented = digest(match ? Buffer.from(match[1]!, "base64").toString("utf8") : "");
  const previous = expected?.previous && now < expected.previous.validUntil ? [expected.previous.secret] : [];
  const accepted = expected ? [expected.secret, ...previous].map((secret) => `${expected.username}:${secret}`) : [""];
  const equal = accepted.map((wanted) => timingSafeEqual(presented, digest(wanted))).includes(true);
  return equal && match !== null && expected !== null;
}
