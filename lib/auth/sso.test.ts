import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { ssoStaffUser } from "./sso";
import { createStaff, updateStaff } from "./staff-users";

const issuer = "https://sso.bank.example";

describe.each(testDatabaseTargets)("single sign-on matching on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let count = 0;
  const newUser = (role: "viewer" | "operations" = "viewer") =>
    createStaff(database.db, { email: `sso-${count++}@bank.example`, name: "SSO", role, password: null });
  const signIn = (subject: string, email: unknown) => ssoStaffUser(database.db, { issuer, subject, email, emailVerified: true });

  it("refuses an email the provider has not verified, and does not bind it", async () => {
    const user = await newUser();
    for (const emailVerified of [false, undefined, "true", 1]) {
      expect(await ssoStaffUser(database.db, { issuer, subject: "sub-unverified", email: user.email, emailVerified })).toBeNull();
    }
    // The same person, once verified, binds normally: nothing was bound by the refusals.
    expect(await signIn("sub-verified", user.email)).toMatchObject({ id: user.id });
  });

  it("binds on the first sign-in and matches on the subject after that, whatever the email says", async () => {
    const user = await newUser("operations");
    expect(await signIn("sub-a", ` ${user.email.toUpperCase()} `)).toMatchObject({ id: user.id, role: "operations" });
    expect(await signIn("sub-a", "renamed@bank.example")).toMatchObject({ id: user.id });
  });

  it("refuses another provider account showing a bound user's email (no takeover)", async () => {
    const user = await newUser();
    await signIn("sub-owner", user.email);
    expect(await signIn("sub-impostor", user.email)).toBeNull();
  });

  it("refuses emails of no staff user, and locked users bound or not", async () => {
    expect(await signIn("sub-stranger", "stranger@elsewhere.example")).toBeNull();
    const bound = await newUser();
    await signIn("sub-bound", bound.email);
    await updateStaff(database.db, bound.id, { locked: true });
    expect(await signIn("sub-bound", bound.email)).toBeNull();
    const unbound = await newUser();
    await updateStaff(database.db, unbound.id, { locked: true });
    expect(await signIn("sub-unbound", unbound.email)).toBeNull();
  });

  it("lets only one of two simultaneous first sign-ins with one email bind", async () => {
    const user = await newUser();
    const results = await Promise.all(["sub-x", "sub-y"].map((subject) => signIn(subject, user.email)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
