import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import * as schema from "@/lib/db/console-schema";
import { publicColumns, type StaffUser } from "./staff-user";
import type { ConsoleDb } from "@/lib/db/console-db";
import type { AccessCache } from "./access-cache";
import type { SessionToken } from "./session-token";

const { staffSessions, staffUsers } = schema;

/**
 * Server-side sessions. The signed session cookie carries only a session id; a session exists while its row does, so
 * ending one is deleting the row: sign-out, lock, role change, removal (cascade) and "sign out everywhere" take
 * effect on the very next request. Checking costs one primary-key read joined to the user, the same single query the
 * console already made per request to re-read the user; a cache of the signed-in user must be invalidated by changes
 * to `staff_sessions` as well as `staff_users`. A session also ends after SESSION_IDLE_TIMEOUT_MINUTES unused
 * (`sessionChecker`).
 */
export interface StaffSession {
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  address: string | null;
}

export async function createSession(
  db: ConsoleDb,
  input: { userId: string; maxAgeMs: number; userAgent: string | null; address: string | null },
  now = new Date(),
): Promise<StaffSession> {
  // Long-expired rows are dropped here, on the rare sign-in, rather than by a timer every instance would run.
  await db.delete(staffSessions).where(lte(staffSessions.expiresAt, now));
  const [session] = await db
    .insert(staffSessions)
    .values({
      id: randomBytes(32).toString("base64url"),
      userId: input.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + input.maxAgeMs),
      lastSeenAt: now,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      address: input.address,
    })
    .returning();
  return session!;
}

/**
 * A session that exists, with its unlocked user, when it expires and when it was last used: null when the session
 * ended or the user is locked or removed. Its expiry and idleness are the caller's to check, so the answer can be
 * cached until the session rows change.
 */
export async function findSession(db: ConsoleDb, sessionId: string): Promise<FoundSession | null> {
  const [row] = await db
    .select({ user: publicColumns, expiresAt: staffSessions.expiresAt, lastSeenAt: staffSessions.lastSeenAt })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .where(and(eq(staffSessions.id, sessionId), eq(staffUsers.locked, false)));
  return row ?? null;
}

export interface FoundSession {
  user: StaffUser;
  expiresAt: Date;
  lastSeenAt: Date;
}

/**
 * Why a session cookie lets no one in any more: its session was ended (sign-out, "sign out everywhere", a lock, a role
 * change, removal), reached SESSION_MAX_AGE_HOURS, or went unused for SESSION_IDLE_TIMEOUT_MINUTES.
 */
export type SessionEnd = "ended" | "expired" | "idle";
export type SessionCheck = { user: StaffUser } | { ended: SessionEnd };

/** A session's use is written at most this often, so a busy session costs one small write a minute, not one a request. */
export const lastSeenWriteMs = 60_000;

export interface SessionChecker {
  /** A request made with the session: its verdict, and, when it is live, its use recorded. */
  use(token: SessionToken): Promise<SessionCheck>;
  /** The verdict alone, for a check no one asked for (an open live stream's): it does not keep the session alive. */
  check(token: SessionToken): Promise<SessionCheck>;
}

/**
 * Decides whether a session cookie still lets its user in, through the access cache (`session:<id>`, invalidated by
 * any change to sessions or staff users, docs/access-cache.md). Use is recorded in `last_seen_at` at most once a
 * minute (an update the access-version trigger ignores, migration 0027, so it drops no cache); the cached entry keeps
 * the time last written. A session whose cached time is older than `idleMs` is read again from its row, since another
 * console process may have recorded a use since, and ended (its row deleted) if the row agrees. So a session ends
 * between `idleMs - lastSeenWriteMs` and `idleMs` after its last use.
 */
export function sessionChecker(options: {
  db: () => Promise<ConsoleDb>;
  cache: Pick<AccessCache, "get">;
  idleMs: number;
  now?: () => number;
}): SessionChecker {
  const clock = options.now ?? Date.now;

  async function verdict(token: SessionToken, used: boolean): Promise<SessionCheck> {
    const db = await options.db();
    const session = await options.cache.get(`session:${token.sid}`, () => findSession(db, token.sid));
    if (!session || session.user.id !== token.sub) return { ended: "ended" };
    const now = clock();
    if (session.expiresAt.getTime() <= now) return { ended: "expired" };
    if (now - session.lastSeenAt.getTime() >= options.idleMs) {
      const row = await findSession(db, token.sid);
      if (!row || row.user.id !== token.sub) return { ended: "ended" };
      if (now - row.lastSeenAt.getTime() >= options.idleMs) {
        await endSession(db, token.sid);
        return { ended: "idle" };
      }
      session.lastSeenAt = row.lastSeenAt;
    }
    if (used && now - session.lastSeenAt.getTime() >= lastSeenWriteMs) {
      // Set before the write: concurrent requests of the session do not write it again.
      session.lastSeenAt = new Date(now);
      await db.update(staffSessions).set({ lastSeenAt: session.lastSeenAt }).where(eq(staffSessions.id, token.sid));
    }
    return { user: session.user };
  }

  return { use: (token) => verdict(token, true), check: (token) => verdict(token, false) };
}

export async function endSession(db: ConsoleDb, sessionId: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.id, sessionId));
}

/** Ends every session of a user; returns how many there were. */
export async function endUserSessions(db: Pick<ConsoleDb, "delete">, userId: string): Promise<number> {
  const ended = await db.delete(staffSessions).where(eq(staffSessions.userId, userId)).returning({ id: staffSessions.id });
  return ended.length;
}

/** The live sessions of the given users, oldest first, for Staff. */
export async function listActiveSessions(db: ConsoleDb, userIds: string[], now = new Date()): Promise<StaffSession[]> {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(staffSessions)
    .where(and(inArray(staffSessions.userId, userIds), gt(staffSessions.expiresAt, now)))
    .orderBy(asc(staffSessions.createdAt));
}
