import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { findSessionUser } from "@/tests/support/sessions";
import { eq } from "drizzle-orm";
import { staffSessions } from "@/lib/db/console-schema";
import { createAccessCache, readAccessVersion } from "./access-cache";
import { createSession, endSession, endUserSessions, findSession, lastSeenWriteMs, listActiveSessions, sessionChecker } from "./sessions";
import { createStaff, removeStaff, updateStaff } from "./staff-users";

const hour = 3_600_000;

describe.each(testDatabaseTargets)("server-side sessions on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let users = 0;
  const newUser = () => createStaff(database.db, { email: `session-${users++}@bank.example`, name: "Session", role: "viewer", password: null });
  const open = (userId: string, now?: Date) => createSession(database.db, { userId, maxAgeMs: hour, userAgent: "test", address: "192.0.2.1" }, now);

  it("finds the user of a live session, and no one once the session is ended", async () => {
    const user = await newUser();
    const session = await open(user.id);
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await findSessionUser(database.db, session.id)).toMatchObject({ id: user.id, role: "viewer" });
    await endSession(database.db, session.id);
    expect(await findSessionUser(database.db, session.id)).toBeNull();
  });

  it("refuses an expired session and a made-up id", async () => {
    const user = await newUser();
    const session = await open(user.id, new Date(Date.now() - 2 * hour));
    expect(await findSessionUser(database.db, session.id)).toBeNull();
    expect(await findSessionUser(database.db, "not-a-session")).toBeNull();
  });

  it("ends every session of a user who is locked, also after unlocking, while a later sign-in works", async () => {
    const user = await newUser();
    const [first, second] = [await open(user.id), await open(user.id)];
    await updateStaff(database.db, user.id, { locked: true });
    await updateStaff(database.db, user.id, { locked: false });
    expect(await findSessionUser(database.db, first.id)).toBeNull();
    expect(await findSessionUser(database.db, second.id)).toBeNull();
    expect(await findSessionUser(database.db, (await open(user.id)).id)).toMatchObject({ id: user.id });
  });

  it("refuses a live session of a locked user", async () => {
    const user = await newUser();
    const session = await open(user.id);
    await database.db.execute(`UPDATE console.staff_users SET locked = true WHERE id = '${user.id}'`);
    expect(await findSessionUser(database.db, session.id)).toBeNull();
  });

  it("ends a user's sessions on a role change and on removal, not on an unrelated change", async () => {
    const user = await newUser();
    const kept = await open(user.id);
    await updateStaff(database.db, user.id, { role: "viewer" });
    expect(await findSessionUser(database.db, kept.id)).not.toBeNull();
    await updateStaff(database.db, user.id, { role: "compliance" });
    expect(await findSessionUser(database.db, kept.id)).toBeNull();
    const beforeRemoval = await open(user.id);
    await removeStaff(database.db, user.id);
    expect(await findSessionUser(database.db, beforeRemoval.id)).toBeNull();
  });

  it("lists a user's live sessions and ends them all at once", async () => {
    const user = await newUser();
    const other = await newUser();
    await open(user.id);
    await open(user.id);
    const untouched = await open(other.id);
    expect((await listActiveSessions(database.db, [user.id])).map((session) => session.userAgent)).toEqual(["test", "test"]);
    expect(await endUserSessions(database.db, user.id)).toBe(2);
    expect(await listActiveSessions(database.db, [user.id])).toEqual([]);
    expect(await findSessionUser(database.db, untouched.id)).toMatchObject({ id: other.id });
  });

  describe("idle timeout", () => {
    const minute = 60_000;
    const idleMs = 30 * minute;
    const start = Date.now() - 2 * hour;
    let now = start;
    /** The sessions as one console process checks them: its own access cache, the test's clock. */
    const consoleProcess = () =>
      sessionChecker({ db: async () => database.db, cache: createAccessCache(() => readAccessVersion(database.pool)), idleMs, now: () => now });
    const at = (minutes: number) => void (now = start + minutes * minute);
    const lastSeen = async (sessionId: string) =>
      (await database.db.select({ at: staffSessions.lastSeenAt }).from(staffSessions).where(eq(staffSessions.id, sessionId)))[0]?.at.getTime();
    const workday = (userId: string) => createSession(database.db, { userId, maxAgeMs: 8 * hour, userAgent: "test", address: null }, new Date(now));
    const tokenOf = (session: { id: string; userId: string }) => ({ sid: session.id, sub: session.userId });

    it("ends a session unused for the timeout and says so, while one in use is kept", async () => {
      const sessions = consoleProcess();
      const user = await newUser();
      at(0);
      const [active, idle] = [await workday(user.id), await workday(user.id)];
      at(10);
      expect(await sessions.use(tokenOf(active))).toEqual({ user: expect.objectContaining({ id: user.id }) });
      at(35);
      expect(await sessions.use(tokenOf(active))).toEqual({ user: expect.objectContaining({ id: user.id }) });
      expect(await sessions.use(tokenOf(idle))).toEqual({ ended: "idle" });
      expect(await findSession(database.db, idle.id)).toBeNull();
      expect(await sessions.use(tokenOf(idle))).toEqual({ ended: "ended" });
      at(64);
      expect(await sessions.use(tokenOf(active))).toEqual({ user: expect.objectContaining({ id: user.id }) });
      at(95);
      expect(await sessions.check(tokenOf(active))).toEqual({ ended: "idle" });
    });

    it("records a use at most once a minute, without a new access version, and a check not at all", async () => {
      const sessions = consoleProcess();
      at(0);
      const session = await workday((await newUser()).id);
      at(0.5);
      await sessions.use(tokenOf(session));
      expect(await lastSeen(session.id)).toBe(start);
      const version = await readAccessVersion(database.pool);
      now = start + lastSeenWriteMs;
      await sessions.use(tokenOf(session));
      expect(await lastSeen(session.id)).toBe(now);
      expect(await readAccessVersion(database.pool)).toBe(version);
      at(5);
      await sessions.check(tokenOf(session));
      expect(await lastSeen(session.id)).toBe(start + lastSeenWriteMs);
    });

    it("keeps a session another console process saw in use, though this one's cache says idle", async () => {
      const [first, second] = [consoleProcess(), consoleProcess()];
      const user = await newUser();
      at(0);
      const session = await workday(user.id);
      at(0.5);
      await first.use(tokenOf(session));
      at(20);
      await second.use(tokenOf(session));
      at(40);
      expect(await first.use(tokenOf(session))).toEqual({ user: expect.objectContaining({ id: user.id }) });
    });

    it("says a session reached its lifetime, and that one was ended", async () => {
      const sessions = consoleProcess();
      const user = await newUser();
      at(0);
      const [lived, signedOut] = [await open(user.id, new Date(now)), await open(user.id, new Date(now))];
      at(61);
      expect(await sessions.use(tokenOf(lived))).toEqual({ ended: "expired" });
      at(20);
      await endSession(database.db, signedOut.id);
      expect(await sessions.use(tokenOf(signedOut))).toEqual({ ended: "ended" });
      expect(await sessions.use({ sid: lived.id, sub: "stf_someone_else" })).toEqual({ ended: "ended" });
    });
  });
});
