"use server";

import { revalidatePath } from "next/cache";
import { audited, newRequestId } from "@/lib/audit";
import { consoleApprovals } from "@/lib/api/console-bank-proxy";
import { requireUser } from "@/lib/auth/current-user";
import { staffActions, type StaffActionState } from "@/lib/auth/staff-actions";
import { consoleDb } from "@/lib/db/console";

export type { StaffActionState } from "@/lib/auth/staff-actions";

// The logic, its checks and its audit records live in lib/auth/staff-actions.ts (tested there against a real database).
const actions = staffActions({
  requireUser,
  db: async () => (await consoleDb()).db,
  audited,
  newRequestId,
  changed: () => revalidatePath("/settings/staff"),
  approvals: consoleApprovals,
});

export async function createStaffUser(previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  return actions.createStaffUser(previous, form);
}

export async function changeStaffRole(previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  return actions.changeStaffRole(previous, form);
}

export async function setStaffLocked(previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  return actions.setStaffLocked(previous, form);
}

export async function removeStaffUser(previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  return actions.removeStaffUser(previous, form);
}

export async function clearSignInLockout(previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  return actions.clearSignInLockout(previous, form);
}

export async function endStaffSessions(previous: StaffActionState, form: FormData): Promise<StaffActionState> {
  return actions.endStaffSessions(previous, form);
}
