import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { admitAttempt, clearAttempts, throttledKeys, type ThrottleRule } from "./throttle";

const rule: ThrottleRule = { freeAttempts: 3, windowMs: 60_000, baseDelayMs: 1000, maxDelayMs: 8000 };
const at = (ms: number) => new Date(1_800_000_000_000 + ms);

describe.each(testDatabaseTargets)("the sign-in throttle on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let keys = 0;
  const freshKey = () => `user:throttle-${keys++}@bank.example`;

  it("admits a few attempts at once, then one per doubling delay up to the maximum", async () => {
    const key = freshKey();
    const admittedAt: number[] = [];
    // Try every 250 ms for 30 s: admitted at 0, 0, 0, then after 1 s, 2 s, 4 s, 8 s, 8 s ...
    for (let ms = 0; ms <= 30_000; ms += 250) {
      const times = ms === 0 ? 3 : 1;
      for (let i = 0; i < times; i++) if (await admitAttempt(database.db, key, rule, at(ms))) admittedAt.push(ms);
    }
    expect(admittedAt).toEqual([0, 0, 0, 1000, 3000, 7000, 15_000, 23_000]);
  });

  it("refuses attempts while the delay runs without lengthening it", async () => {
    const key = freshKey();
    for (let i = 0; i < 3; i++) expect(await admitAttempt(database.db, key, rule, at(0))).toBe(true);
    for (let ms = 0; ms < 1000; ms += 100) expect(await admitAttempt(database.db, key, rule, at(ms))).toBe(false);
    expect(await admitAttempt(database.db, key, rule, at(1000))).toBe(true);
  });

  it("keeps keys apart, and forgets a key once its window has passed or it is cleared", async () => {
    const [a, b, c] = [freshKey(), freshKey(), freshKey()];
    for (let i = 0; i < 3; i++) await admitAttempt(database.db, a, rule, at(0));
    expect(await admitAttempt(database.db, b, rule, at(0))).toBe(true);
    expect(await admitAttempt(database.db, a, rule, at(500))).toBe(false);
    expect(await admitAttempt(database.db, a, rule, at(60_001))).toBe(true);
    for (let i = 0; i < 4; i++) await admitAttempt(database.db, c, rule, at(0));
    expect(await throttledKeys(database.db, [a, b, c], rule, at(100))).toEqual(new Set([c]));
    await clearAttempts(database.db, c, rule, at(100));
    expect(await admitAttempt(database.db, c, rule, at(100))).toBe(true);
  });

  it("admits at most the free attempts of a burst of 200 parallel ones", async () => {
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 200 }, () => admitAttempt(database.db, key, rule, at(0))));
    expect(results.filter(Boolean)).toHaveLength(rule.freeAttempts);
  });
});
