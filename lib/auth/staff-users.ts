import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import * as schema from "@/lib/db/console-schema";
import type { Role } from "@/lib/permissions";
import { demoUsers } from "./demo-users";
import { hashPassword } from "./password";
import { publicColumns, type StaffUser } from "./staff-user";
import { endUserSessions } from "./sessions";
import type { ConsoleDb } from "@/lib/db/console-db";

const { staffUsers } = schema;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findStaffById(db: ConsoleDb, id: string): Promise<StaffUser | null> {
  const [row] = await db.select(publicColumns).from(staffUsers).where(eq(staffUsers.id, id));
  return row ?? null;
}

export async function findStaffByEmail(db: ConsoleDb, email: string): Promise<(StaffUser & { passwordHash: string | null }) | null> {
  const [row] = await db
    .select({ ...publicColumns, passwordHash: staffUsers.passwordHash })
    .from(staffUsers)
    .where(eq(staffUsers.email, normalizeEmail(email)));
  return row ?? null;
}

/** Stores a new hash of the same password, unless the hash changed meanwhile (then the newer one stays). */
export async function replacePasswordHash(db: ConsoleDb, id: string, previousHash: string, newHash: string): Promise<void> {
  await db
    .update(staffUsers)
    .set({ passwordHash: newHash })
    .where(and(eq(staffUsers.id, id), eq(staffUsers.passwordHash, previousHash)));
}

export async function listStaff(db: ConsoleDb): Promise<StaffUser[]> {
  return db.select(publicColumns).from(staffUsers).orderBy(asc(staffUsers.email));
}

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A staff user with email ${email} already exists`);
  }
}

export const newStaffId = () => `stf_${randomBytes(9).toString("base64url")}`;

export async function createStaff(
  db: ConsoleDb,
  input: { id?: string; email: string; name: string; role: Role; password: string | null; createdBy?: string | null },
): Promise<StaffUser> {
  const email = normalizeEmail(input.email);
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  const [row] = await db
    .insert(staffUsers)
    .values({ id: input.id ?? newStaffId(), email, name: input.name.trim(), role: input.role, passwordHash, createdBy: input.createdBy ?? null })
    .onConflictDoNothing({ target: staffUsers.email })
    .returning(publicColumns);
  if (!row) throw new EmailTakenError(email);
  return row;
}

/**
 * Applies `change` to one user and returns the user before and after; null when no such user exists. Locking or a
 * new role ends the user's sessions: they sign in again, under the role they now have. A role change names who asked
 * for it (`roleChangedBy`), whose requests the user then never approves (lib/approvals/independence.ts).
 */
export async function updateStaff(
  db: ConsoleDb,
  id: string,
  change: Partial<Pick<StaffUser, "role" | "locked"> & { roleChangedBy: string }>,
): Promise<{ before: StaffUser; after: StaffUser } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select(publicColumns).from(staffUsers).where(eq(staffUsers.id, id)).for("update");
    if (!before) return null;
    const [after] = await tx.update(staffUsers).set(change).where(eq(staffUsers.id, id)).returning(publicColumns);
    if ((change.locked === true && !before.locked) || (change.role !== undefined && change.role !== before.role)) await endUserSessions(tx, id);
    return { before, after: after! };
  });
}

export async function removeStaff(db: ConsoleDb, id: string): Promise<StaffUser | null> {
  const [row] = await db.delete(staffUsers).where(eq(staffUsers.id, id)).returning(publicColumns);
  return row ?? null;
}

export async function countAdmins(db: ConsoleDb, options: { unlockedOnly: boolean }): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)` })
    .from(staffUsers)
    .where(options.unlockedOnly ? sql`${staffUsers.role} = 'admin' AND NOT ${staffUsers.locked}` : eq(staffUsers.role, "admin"));
  return Number(row?.count ?? 0);
}

/** Seeds the demo users (one per role) only into an empty staff table, so a deployment's own users are never touched. */
export async function seedDemoUsers(db: ConsoleDb): Promise<void> {
  const [existing] = await db.select({ id: staffUsers.id }).from(staffUsers).limit(1);
  if (existing) return;
  for (const user of demoUsers) await createStaff(db, user);
}
