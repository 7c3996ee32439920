import { randomUUID } from "node:crypto";
import ipaddr from "ipaddr.js";
import { inArray, lt, sql } from "drizzle-orm";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";

const { signInThrottle } = schema;

/**
 * Slows down password guessing, in the console's database so that every console instance shares it and a restart
 * forgets nothing. Each key (one per email, one per client address) is admitted to `freeAttempts` password checks
 * within `windowMs`; after that each further check must wait a delay that doubles with each one, up to `maxDelayMs`.
 * A success clears the email's key and takes its attempt back from the address's key. An attempt is admitted or refused BEFORE any password work, in one statement
 * (an upsert that holds the key's row lock), so parallel attempts are counted one after the other and a burst of any
 * size checks no more passwords than the rule allows.
 */
export interface ThrottleRule {
  freeAttempts: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const minute = 60_000;

/** Per email: 5 free attempts in 15 minutes, then 5 s, 10 s, 20 s ... up to 15 minutes between attempts. */
export const perUserRule: ThrottleRule = { freeAttempts: 5, windowMs: 15 * minute, baseDelayMs: 5000, maxDelayMs: 15 * minute };
/** Per client address: more generous (several staff may share an office address), same growth. */
export const perAddressRule: ThrottleRule = { freeAttempts: 30, windowMs: 15 * minute, baseDelayMs: 5000, maxDelayMs: 15 * minute };

export const userKey = (normalizedEmail: string) => `user:${normalizedEmail}`;
/**
 * One key per client network: an IPv4 address, or an IPv6 address's /64 (one host usually holds a whole /64, so
 * keying by full address would give it 2^64 fresh allowances).
 */
export function addressKey(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return `address:${address}`;
  const prefix = ipaddr.IPv6.parse(address)
    .parts.slice(0, 4)
    .map((part) => part.toString(16));
  return `address:${prefix.join(":")}::/64`;
}

/** SQL for "the key's window has passed" and "this attempt may check a password", over the existing row `t`. */
function conditions(rule: ThrottleRule, now: Date) {
  const expired = sql`t.last_admitted_at < ${now}::timestamptz - make_interval(secs => ${rule.windowMs / 1000})`;
  const delayMs = sql`least(${rule.baseDelayMs}::float8 * power(2, t.admitted - ${rule.freeAttempts}), ${rule.maxDelayMs})`;
  const waited = sql`t.last_admitted_at + make_interval(secs => ${delayMs} / 1000) <= ${now}::timestamptz`;
  return { expired, admit: sql`(${expired} OR t.admitted < ${rule.freeAttempts} OR ${waited})` };
}

/** Counts an attempt on `key` and says whether it may check a password now. */
export async function admitAttempt(db: ConsoleDb, key: string, rule: ThrottleRule, now = new Date()): Promise<boolean> {
  const attemptId = randomUUID();
  const { expired, admit } = conditions(rule, now);
  const result = await db.execute<{ admitted: boolean }>(sql`
    INSERT INTO console.sign_in_throttle AS t (key, admitted, last_admitted_at, last_attempt_id)
    VALUES (${key}, 1, ${now}, ${attemptId})
    ON CONFLICT (key) DO UPDATE SET
      admitted = CASE WHEN ${expired} THEN 1 WHEN ${admit} THEN t.admitted + 1 ELSE t.admitted END,
      last_admitted_at = CASE WHEN ${admit} THEN ${now}::timestamptz ELSE t.last_admitted_at END,
      last_attempt_id = CASE WHEN ${admit} THEN ${attemptId} ELSE t.last_attempt_id END
    RETURNING t.last_attempt_id = ${attemptId} AS admitted`);
  return result.rows[0]?.admitted === true;
}

/**
 * Takes one admitted attempt back from `key`: a correct password from an address should not count against it, or a
 * busy office would lock itself out by signing in.
 */
export async function refundAttempt(db: ConsoleDb, key: string): Promise<void> {
  await db.execute(sql`UPDATE console.sign_in_throttle SET admitted = greatest(admitted - 1, 0) WHERE key = ${key}`);
}

/** Forgets a key's attempts (a successful sign-in, or an admin lifting a lockout); also drops keys whose window passed. */
export async function clearAttempts(db: ConsoleDb, key: string, rule: ThrottleRule, now = new Date()): Promise<void> {
  await db
    .delete(signInThrottle)
    .where(sql`${signInThrottle.key} = ${key} OR ${lt(signInThrottle.lastAdmittedAt, new Date(now.getTime() - rule.windowMs))}`);
}

/** Of `keys`, those that would be refused right now (for Staff: who is locked out of signing in). */
export async function throttledKeys(db: ConsoleDb, keys: string[], rule: ThrottleRule, now = new Date()): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { admit } = conditions(rule, now);
  const rows = await db
    .select({ key: sql<string>`t.key` })
    .from(sql`${signInThrottle} AS t`)
    .where(sql`${inArray(sql`t.key`, keys)} AND NOT ${admit}`);
  return new Set(rows.map((row) => row.key));
}
