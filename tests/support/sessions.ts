import { findSession } from "@/lib/auth/sessions";
import type { ConsoleDb } from "@/lib/db/console-db";

/** The user a request with this session would be (lib/auth/current-user.ts): none once it ended or expired, or its user is locked or removed. */
export async function findSessionUser(db: ConsoleDb, sessionId: string, now = new Date()) {
  const session = await findSession(db, sessionId);
  return session && session.expiresAt > now ? session.user : null;
}
