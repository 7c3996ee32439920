import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { findSessionUser } from "@/tests/support/sessions";
import { createSession, endSession, endUserSessions, listActiveSessions } from "./sessions";
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
});
