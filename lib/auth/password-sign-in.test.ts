import { scryptSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { signInThrottle, staffUsers } from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { passwordSignIn, SignInThrottled } from "./password-sign-in";
import { verifyPassword } from "./password";
import { createStaff, findStaffByEmail } from "./staff-users";
import { perAddressRule, perUserRule } from "./throttle";

/** A password check that counts its calls: what the throttle must bound. */
function countingVerify() {
  const counter = { calls: 0, verify: (password: string, stored: string | null) => (counter.calls++, verifyPassword(password, stored)) };
  return counter;
}

/** A stand-in check where the throttle's bookkeeping is under test, not the hash: many sign-ins stay fast. */
const fastVerify = { calls: 0, verify: async (password: string) => password === "the right password" };

/** A sign-in request from its own client address, as through a trusted proxy that forwards it. */
const proxy = "10.0.0.5";
const requestFrom = (index: number) =>
  new Request("http://console.test/api/auth/callback/credentials", {
    method: "POST",
    headers: { "x-forwarded-for": `203.0.113.${index % 250}, ${proxy}` },
  });

async function burst(authorize: ReturnType<typeof passwordSignIn>, email: string, count: number, offset = 0) {
  return Promise.allSettled(
    Array.from({ length: count }, (_, index) => authorize({ email, password: `guess-${index}` }, requestFrom(index + offset))),
  );
}

/** Tests that compute real N=2^17 hashes (about 1 s each, several times that on a loaded 2-core machine). */
const hashingTimeoutMs = 120_000;

/** Every attempt at the same instant: no throttle delay runs out, however slow the machine. */
const frozen = new Date();

describe.each(testDatabaseTargets)("password sign-in on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const signIn = (counter: ReturnType<typeof countingVerify>, db = database.db) =>
    passwordSignIn({ db: async () => db, trustedProxies: [proxy], verify: counter.verify, refusalDelayMs: 0, now: () => frozen });

  it(
    "checks at most the allowed number of passwords for 200 parallel wrong ones, each from its own address",
    { timeout: hashingTimeoutMs },
    async () => {
      const email = "burst@bank.example";
      await createStaff(database.db, { email, name: "Burst", role: "viewer", password: "the right password" });
      const counter = countingVerify();
      const results = await burst(signIn(counter), email, 200);
      expect(counter.calls).toBeLessThanOrEqual(perUserRule.freeAttempts);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(counter.calls);
      expect(results.filter((result) => result.status === "rejected" && result.reason instanceof SignInThrottled)).toHaveLength(200 - counter.calls);
      // The right password is refused too while the lockout lasts: the throttle answers before any check.
      await expect(signIn(counter)({ email, password: "the right password" }, requestFrom(7))).rejects.toThrow(SignInThrottled);
    },
  );

  it("throttles an unknown email exactly like a real one", { timeout: hashingTimeoutMs }, async () => {
    const counter = countingVerify();
    await burst(signIn(counter), "nobody@bank.example", 50);
    expect(counter.calls).toBe(perUserRule.freeAttempts);
  });

  it.each([
    ["no email", { password: "the right password" }],
    ["no password", { email: "malformed@bank.example" }],
    ["an email that is not text", { email: ["malformed@bank.example"], password: "the right password" }],
    ["a password that is not text", { email: "malformed@bank.example", password: { $ne: "" } }],
    ["an email of spaces", { email: "   ", password: "the right password" }],
    ["an email longer than any address", { email: `${"m".repeat(320)}@bank.example`, password: "the right password" }],
    ["a password of 1,025 characters", { email: "malformed@bank.example", password: "p".repeat(1025) }],
    ["a NUL byte in the email", { email: "malformed\u0000@bank.example", password: "the right password" }],
    ["a lone surrogate in the email", { email: "malformed\ud800@bank.example", password: "the right password" }],
  ])("refuses a sign-in with %s like a wrong password: no password checked, no attempt counted", async (_case, input) => {
    await createStaff(database.db, { email: "malformed@bank.example", name: "Malformed", role: "viewer", password: "the right password" }).catch(
      () => undefined,
    );
    const counter = countingVerify();
    const attemptsBefore = await database.db.select().from(signInThrottle);
    expect(await signIn(counter)(input, requestFrom(11))).toBeNull();
    expect(counter.calls).toBe(0);
    expect(await database.db.select().from(signInThrottle)).toEqual(attemptsBefore);
  });

  it("signs in with the right password and then forgets the failures", async () => {
    const email = "returning@bank.example";
    await createStaff(database.db, { email, name: "Returning", role: "operations", password: "the right password" });
    const authorize = signIn(fastVerify);
    for (let i = 0; i < perUserRule.freeAttempts - 1; i++) expect(await authorize({ email, password: "wrong" }, requestFrom(i))).toBeNull();
    expect(await authorize({ email: " Returning@Bank.Example", password: "the right password" }, requestFrom(1))).toMatchObject({
      email,
      role: "operations",
    });
    for (let i = 0; i < perUserRule.freeAttempts; i++) expect(await authorize({ email, password: "wrong" }, requestFrom(i))).toBeNull();
  });

  it("hashes a password stored at an older cost again on sign-in", { timeout: hashingTimeoutMs }, async () => {
    const email = "legacy@bank.example";
    const user = await createStaff(database.db, { email, name: "Legacy", role: "viewer", password: null });
    const legacy =
      "scrypt$1024$8$1$c2FsdA==$" + scryptSync("old but right", Buffer.from("c2FsdA==", "base64"), 32, { N: 1024, r: 8, p: 1 }).toString("base64");
    await database.db.update(staffUsers).set({ passwordHash: legacy }).where(eq(staffUsers.id, user.id));
    expect(await signIn(countingVerify())({ email, password: "old but right" }, requestFrom(3))).toMatchObject({ email });
    const stored = (await findStaffByEmail(database.db, email))!.passwordHash!;
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword("old but right", stored)).toBe(true);
  });

  it("does not count successful sign-ins against the client's address", async () => {
    const email = "busy-office@bank.example";
    await createStaff(database.db, { email, name: "Busy", role: "viewer", password: "the right password" });
    const authorize = signIn(fastVerify);
    const office = requestFrom(249);
    for (let i = 0; i < perAddressRule.freeAttempts + 5; i++) {
      expect(await authorize({ email, password: "the right password" }, office)).toMatchObject({ email });
    }
  });

  it("counts every address of one IPv6 /64 as one client: a host cannot rotate addresses past the throttle", async () => {
    const authorize = signIn(fastVerify);
    const fromV6 = (index: number) =>
      new Request("http://console.test/api/auth/callback/credentials", {
        method: "POST",
        headers: { "x-forwarded-for": `2001:db8:7:9::${index.toString(16)}, ${proxy}` },
      });
    const results = await Promise.allSettled(
      Array.from({ length: perAddressRule.freeAttempts + 10 }, (_, index) =>
        authorize({ email: `v6-${index}@bank.example`, password: "wrong" }, fromV6(index + 1)),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(perAddressRule.freeAttempts);
    // Another /64 is another client.
    expect(
      await authorize(
        { email: "v6-other@bank.example", password: "wrong" },
        new Request("http://console.test/x", { method: "POST", headers: { "x-forwarded-for": `2001:db8:7:a::1, ${proxy}` } }),
      ),
    ).toBeNull();
  });

  it.runIf(target.name === "postgresql")("holds across two console instances sharing the database", { timeout: hashingTimeoutMs }, async () => {
    const email = "two-instances@bank.example";
    const second = connectDatabase(database.pool.options.connectionString!, schema);
    try {
      const counter = countingVerify();
      await Promise.all([burst(signIn(counter), email, 100), burst(signIn(counter, second.db), email, 100, 100)]);
      expect(counter.calls).toBeLessThanOrEqual(perUserRule.freeAttempts);
    } finally {
      await second.close();
    }
  });
});
