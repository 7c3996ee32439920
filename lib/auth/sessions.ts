import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import * as schema from "@/lib/db/console-schema";
import { publicColumns, type StaffUser } from "./staff-user";
import type { ConsoleDb } from "@/lib/db/console-db";

const { staffSessions, staffUsers } = schema;

/**
 * Server-side sessions. The signed session cookie carries only a session id; a session exists while its row does, so
 * ending one is deleting the row: sign-out, lock, role change, removal (cascade) and "sign out everywhere" take
 * effect on the very next request. Checking costs one primary-key read joined to the user, the same single query the
 * console already made per request to re-read the user; a cache of the signed-in user must be invalidated by changes
 * to `staff_sessions` as well as `staff_users`.
 */
export interface StaffSession {
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
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
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      address: input.address,
    })
    .returning();
  return session!;
}

/**
 * A session that exists, with its unlocked user, and when it expires: null when the session ended or the user is
 * locked or removed. Its expiry is the caller's to check, so the answer can be cached until the session rows change.
 */
export async function findSession(db: ConsoleDb, sessionId: string): Promise<{ user: StaffUser; expiresAt: Date } | null> {
  const [row] = await db
    .select({ user: publicColumns, expiresAt: staffSessions.expiresAt })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .where(and(eq(staffSessions.id, sessionId), eq(staffUsers.locked, false)));
  return row ?? null;
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
