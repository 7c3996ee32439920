import { eq } from "drizzle-orm";
import { z } from "zod";
import * as schema from "@/lib/db/console-schema";
import type { Environment } from "./environments";
import { seal, unseal } from "./seal";
import type { ConsoleDb } from "@/lib/db/console-db";

const { bankCredentials } = schema;

export type BankAuth = { type: "basic"; keyId: string; secret: string } | { type: "bearer"; token: string };

/** Everything the bank client needs to reach one environment. Server-side only: it carries the secret. */
export interface BankConnection {
  environment: Environment;
  baseUrl: string;
  auth: BankAuth;
}

/** What the settings page may show about a connection: never the secret or token. */
export interface ConnectionSummary {
  environment: Environment;
  source: "saved" | "environment variables" | "not configured";
  baseUrl: string | null;
  authType: BankAuth["type"] | null;
  keyId: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

const sealedAuth = z.discriminatedUnion("type", [
  z.object({ type: z.literal("basic"), keyId: z.string().min(1), secret: z.string().min(1) }),
  z.object({ type: z.literal("bearer"), token: z.string().min(1) }),
]);

/** Saves (or replaces) the credentials of one environment, the auth part sealed under `key`. */
export async function saveConnection(db: ConsoleDb, connection: BankConnection, key: Buffer, updatedBy: string): Promise<void> {
  const row = {
    baseUrl: connection.baseUrl,
    authType: connection.auth.type,
    sealedAuth: seal(JSON.stringify(connection.auth), key, connection.environment),
    updatedAt: new Date(),
    updatedBy,
  };
  await db
    .insert(bankCredentials)
    .values({ environment: connection.environment, ...row })
    .onConflictDoUpdate({ target: bankCredentials.environment, set: row });
}

/** Removes saved credentials of one environment (it falls back to the environment variables); true if any existed. */
export async function deleteSavedConnection(db: ConsoleDb, environment: Environment): Promise<boolean> {
  const rows = await db.delete(bankCredentials).where(eq(bankCredentials.environment, environment)).returning();
  return rows.length > 0;
}

export async function loadSavedConnection(
  db: ConsoleDb,
  environment: Environment,
  key: Buffer,
): Promise<(BankConnection & { updatedAt: Date; updatedBy: string }) | null> {
  const [row] = await db.select().from(bankCredentials).where(eq(bankCredentials.environment, environment));
  if (!row) return null;
  const auth = sealedAuth.parse(JSON.parse(unseal(row.sealedAuth, key, environment)));
  return { environment, baseUrl: row.baseUrl, auth, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
}

export function summarize(
  connection: BankConnection | null,
  environment: Environment,
  source: ConnectionSummary["source"],
  saved?: { updatedAt: Date; updatedBy: string },
): ConnectionSummary {
  return {
    environment,
    source: connection ? source : "not configured",
    baseUrl: connection?.baseUrl ?? null,
    authType: connection?.auth.type ?? null,
    keyId: connection?.auth.type === "basic" ? connection.auth.keyId : null,
    updatedAt: saved ? saved.updatedAt.toISOString().replace(/\.\d{3}Z$/, "Z") : null,
    updatedBy: saved?.updatedBy ?? null,
  };
}
