import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { basicAuthorizationMatches, ensureReceiverCredentials, loadReceiverCredentials, rotateReceiverCredentials } from "./receiver-credentials";

// The receiver's Basic credentials on a real console database: a rotation keeps the secret it replaced for a bounded
// overlap, and the receiver's check (basicAuthorizationMatches over what loadReceiverCredentials reads, exactly as
// lib/index/receiver.ts asks) accepts both until it ends and only the new one after.

const basic = (username: string, secret: string) => `Basic ${Buffer.from(`${username}:${secret}`).toString("base64")}`;
const tenMinutes = 600_000;

describe.each(testDatabaseTargets)("the receiver's credentials on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const key = randomBytes(32);
  const load = (environment: Environment) => loadReceiverCredentials(database.db, environment, key);

  it("after a rotation accepts the old and the new secret during the overlap, and only the new one after it", async () => {
    const old = await ensureReceiverCredentials(database.db, "sandbox", key, "test");
    const rotatedAt = Date.now();
    const rotated = await rotateReceiverCredentials(database.db, "sandbox", key, "admin@bank.example", tenMinutes);
    expect(rotated.secret).not.toBe(old.secret);
    const loaded = await load("sandbox");
    expect(loaded!.previous!.secret).toBe(old.secret);
    expect(loaded!.previous!.validUntil.getTime()).toBeGreaterThanOrEqual(rotatedAt + tenMinutes - 1000);
    expect(loaded!.previous!.validUntil.getTime()).toBeLessThanOrEqual(Date.now() + tenMinutes);

    const oldHeader = basic("console-sandbox", old.secret);
    const newHeader = basic("console-sandbox", rotated.secret);
    expect(basicAuthorizationMatches(oldHeader, loaded)).toBe(true);
    expect(basicAuthorizationMatches(newHeader, loaded)).toBe(true);
    expect(basicAuthorizationMatches(basic("console-sandbox", "guessed"), loaded)).toBe(false);
    expect(basicAuthorizationMatches(basic("someone-else", old.secret), loaded)).toBe(false);

    const ended = new Date(loaded!.previous!.validUntil.getTime() + 1);
    expect(basicAuthorizationMatches(oldHeader, loaded, ended)).toBe(false);
    expect(basicAuthorizationMatches(newHeader, loaded, ended)).toBe(true);
  });

  it("reads no previous secret once its overlap is over, and a second rotation keeps only the secret it replaced", async () => {
    const first = await ensureReceiverCredentials(database.db, "production", key, "test");
    const second = await rotateReceiverCredentials(database.db, "production", key, "test", 0);
    expect((await load("production"))!.previous).toBeUndefined();
    expect(basicAuthorizationMatches(basic("console-production", first.secret), await load("production"))).toBe(false);

    const third = await rotateReceiverCredentials(database.db, "production", key, "test", tenMinutes);
    const loaded = await load("production");
    expect(loaded!.previous!.secret).toBe(second.secret);
    expect(basicAuthorizationMatches(basic("console-production", first.secret), loaded)).toBe(false);
    expect(basicAuthorizationMatches(basic("console-production", second.secret), loaded)).toBe(true);
    expect(basicAuthorizationMatches(basic("console-production", third.secret), loaded)).toBe(true);
  });

  it("keeps the previous secret sealed, like the current one", async () => {
    const old = await ensureReceiverCredentials(database.db, "sandbox", key, "test");
    await rotateReceiverCredentials(database.db, "sandbox", key, "test", tenMinutes);
    const [row] = await database.db.select().from(schema.receiverCredentials).where(eq(schema.receiverCredentials.environment, "sandbox"));
    expect(row!.previousSealedSecret).toEqual(expect.any(String));
    expect(JSON.stringify(row)).not.toContain(old.secret);
  });
});
