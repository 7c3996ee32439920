import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoUsers } from "./demo-users";
import { verifyPassword } from "./password";
import {
  countAdmins,
  createStaff,
  EmailTakenError,
  findStaffByEmail,
  findStaffById,
  listStaff,
  removeStaff,
  seedDemoUsers,
  updateStaff,
} from "./staff-users";

describe.each(testDatabaseTargets)("staff users on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  describe("on an empty staff table", () => {
    // Its own database: seeding only ever happens into an empty table, whatever other tests created.
    const empty = migratedConsoleDatabase(target);

    it("seeds one demo user per role and a second admin, with working passwords, and only once", async () => {
      await seedDemoUsers(empty.db);
      await seedDemoUsers(empty.db);
      const staff = await listStaff(empty.db);
      expect(staff.map((user) => user.role).sort()).toEqual(["admin", "admin", "compliance", "operations", "viewer"]);
      const admin = await findStaffByEmail(empty.db, "ADMIN@demo.bank ");
      expect(await verifyPassword(demoUsers[0]!.password, admin!.passwordHash)).toBe(true);
    });
  });

  it("never returns the password hash outside the sign-in lookup", async () => {
    await createStaff(database.db, { email: "hash@bank.example", name: "Hash", role: "viewer", password: "a long password" });
    for (const user of await listStaff(database.db)) expect(Object.keys(user).sort()).toEqual(["email", "id", "locked", "name", "role"]);
    expect(await findStaffByEmail(database.db, "hash@bank.example")).toMatchObject({ passwordHash: expect.stringMatching(/^scrypt/) });
  });

  it("creates a user with a normalized email and refuses a second one with the same email", async () => {
    const created = await createStaff(database.db, {
      email: " New.Person@Bank.Example",
      name: " New Person ",
      role: "viewer",
      password: "a long password",
    });
    expect(created).toMatchObject({ email: "new.person@bank.example", name: "New Person", role: "viewer", locked: false });
    expect(created.id).toMatch(/^stf_/);
    await expect(createStaff(database.db, { email: "new.person@bank.example", name: "Again", role: "admin", password: null })).rejects.toThrow(
      EmailTakenError,
    );
  });

  it("changes role and lock state, returning the user before and after", async () => {
    const user = await createStaff(database.db, { email: "change@bank.example", name: "Change", role: "viewer", password: null });
    const changed = await updateStaff(database.db, user.id, { role: "compliance", locked: true });
    expect(changed?.before).toMatchObject({ role: "viewer", locked: false });
    expect(changed?.after).toMatchObject({ role: "compliance", locked: true });
    expect(await updateStaff(database.db, "stf_missing", { locked: true })).toBeNull();
  });

  it("removes a user so they can no longer be found", async () => {
    const user = await createStaff(database.db, { email: "gone@bank.example", name: "Gone", role: "viewer", password: null });
    expect(await removeStaff(database.db, user.id)).toMatchObject({ email: "gone@bank.example" });
    expect(await findStaffById(database.db, user.id)).toBeNull();
    expect(await removeStaff(database.db, user.id)).toBeNull();
  });

  it("counts admins, optionally only unlocked ones", async () => {
    const before = { all: await countAdmins(database.db, { unlockedOnly: false }), unlocked: await countAdmins(database.db, { unlockedOnly: true }) };
    const admin = await createStaff(database.db, { email: "admin2@bank.example", name: "Second", role: "admin", password: null });
    await createStaff(database.db, { email: "not-an-admin@bank.example", name: "Other", role: "operations", password: null });
    expect(await countAdmins(database.db, { unlockedOnly: false })).toBe(before.all + 1);
    expect(await countAdmins(database.db, { unlockedOnly: true })).toBe(before.unlocked + 1);
    await updateStaff(database.db, admin.id, { locked: true });
    expect(await countAdmins(database.db, { unlockedOnly: false })).toBe(before.all + 1);
    expect(await countAdmins(database.db, { unlockedOnly: true })).toBe(before.unlocked);
  });
});
