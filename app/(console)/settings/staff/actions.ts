"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { audited, newRequestId } from "@/lib/audit";
import { requireUser, type StaffUser } from "@/lib/auth/current-user";
import { firstIssue, newStaffInput, staffIdInput } from "@/lib/auth/staff-input";
import { createStaff, EmailTakenError, findStaffById, newStaffId, removeStaff, updateStaff } from "@/lib/auth/staff-users";
import { endUserSessions } from "@/lib/auth/sessions";
import { clearAttempts, perUserRule, userKey } from "@/lib/auth/throttle";
import { consoleDb, type ConsoleDatabase } from "@/lib/db/console";
import { roles } from "@/lib/permissions";

export interface StaffActionState {
  error: string | null;
  done: string | null;
}

type ConsoleDb = ConsoleDatabase["db"];

const fields = (form: FormData) => Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));

/**
 * Runs one audited staff change for the signed-in admin: reads the user as they are (the audit "before"), performs the
 * change only once its audit record is written, and stores the user as they are afterwards (null once removed).
 * The admin's own account is off limits, so the console can never lose its last admin by a slip.
 */
async function staffChange(
  action: string,
  target: { id: string; isNew?: boolean },
  perform: (db: ConsoleDb) => Promise<StaffUser | null>,
  done: string,
): Promise<StaffActionState> {
  const actor = await requireUser("staff:manage");
  if (target.id === actor.id) return { error: "You cannot change your own account here; ask another admin.", done: null };
  const { db } = await consoleDb();
  const before = target.isNew ? null : await findStaffById(db, target.id);
  if (!target.isNew && !before) return { error: `id: no staff user ${target.id}`, done: null };
  try {
    const after = await audited({ actor, environment: null, action, targetId: target.id, before, requestId: newRequestId() }, () => perform(db), {
      after: (result) => result,
    });
    revalidatePath("/settings/staff");
    return { error: null, done: `${done}: ${(after ?? before)?.email}` };
  } catch (error) {
    if (error instanceof EmailTakenError) return { error: `email: ${error.message}`, done: null };
    throw error;
  }
}

export async function createStaffUser(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  const input = newStaffInput.safeParse(fields(form));
  if (!input.success) return { error: firstIssue(input.error), done: null };
  const id = newStaffId();
  return staffChange("staff.create", { id, isNew: true }, (db) => createStaff(db, { ...input.data, id, password: input.data.password || null }), "Created");
}

const roleChange = z.object({ id: staffIdInput, role: z.enum(roles, { message: `role: expected one of ${roles.join(", ")}` }) });

export async function changeStaffRole(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  const input = roleChange.safeParse(fields(form));
  if (!input.success) return { error: firstIssue(input.error), done: null };
  return staffChange("staff.role_change", { id: input.data.id }, async (db) => (await updateStaff(db, input.data.id, { role: input.data.role }))?.after ?? null, "Role changed");
}

const lockChange = z.object({ id: staffIdInput, locked: z.enum(["true", "false"], { message: "locked: expected true or false" }) });

export async function setStaffLocked(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  const input = lockChange.safeParse(fields(form));
  if (!input.success) return { error: firstIssue(input.error), done: null };
  const locked = input.data.locked === "true";
  return staffChange(locked ? "staff.lock" : "staff.unlock", { id: input.data.id }, async (db) => (await updateStaff(db, input.data.id, { locked }))?.after ?? null, locked ? "Locked" : "Unlocked");
}

export async function removeStaffUser(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  const id = staffIdInput.safeParse(form.get("id"));
  if (!id.success) return { error: firstIssue(id.error), done: null };
  return staffChange("staff.remove", { id: id.data }, async (db) => {
    await removeStaff(db, id.data);
    return null;
  }, "Removed");
}

/** Lifts the sign-in throttle's lockout of one user's email (the per-address limit stays). */
export async function clearSignInLockout(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  const id = staffIdInput.safeParse(form.get("id"));
  if (!id.success) return { error: firstIssue(id.error), done: null };
  return staffChange("staff.sign_in_lockout.clear", { id: id.data }, async (db) => {
    const user = await findStaffById(db, id.data);
    if (user) await clearAttempts(db, userKey(user.email), perUserRule);
    return user;
  }, "Sign-in lockout cleared");
}

/** "Sign out everywhere": ends every session of one user at once. */
export async function endStaffSessions(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  const id = staffIdInput.safeParse(form.get("id"));
  if (!id.success) return { error: firstIssue(id.error), done: null };
  return staffChange("staff.sessions.end", { id: id.data }, async (db) => {
    await endUserSessions(db, id.data);
    return findStaffById(db, id.data);
  }, "Signed out everywhere");
}
