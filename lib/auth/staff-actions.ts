import { z } from "zod";
import { staffChangeHeld, staffChangesEnvironment, type ApprovalAnswer } from "@/lib/approvals/codes";
import type { HeldStaffChange } from "@/lib/approvals/service";
import type { AuditEntry } from "@/lib/audit/trail";
import type { Environment } from "@/lib/credentials/environments";
import { roles, type Permission } from "@/lib/permissions";
import { firstIssue, newStaffInput, staffIdInput } from "./staff-input";
import { endUserSessions } from "./sessions";
import { clearAttempts, perUserRule, userKey } from "./throttle";
import { createStaff, EmailTakenError, findStaffById, newStaffId, normalizeEmail, removeStaff, updateStaff } from "./staff-users";
import type { StaffUser } from "./staff-user";
import type { ConsoleDb } from "@/lib/db/console-db";

export interface StaffActionState {
  error: string | null;
  done: string | null;
}

/** What the staff actions need from the console; lib/actions/staff.ts wires the real ones. */
export interface StaffActionDependencies {
  /** The signed-in user holding `permission`; otherwise it does not return (redirect to sign-in, or 403). */
  requireUser(permission: Permission): Promise<StaffUser>;
  db(): Promise<ConsoleDb>;
  /** Writes the audit record first, performs the change only if that worked, then finalizes it (lib/audit). */
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  newRequestId(): string;
  /** Called after a change, so the staff page shows it. */
  changed(): void;
  /**
   * Four-eyes on staff accounts (docs/approvals.md, "Staff accounts"): where production's setting holds, a new account
   * that may approve and a raised role wait for another admin (lib/approvals/service.ts).
   */
  approvals: {
    required(environment: Environment): Promise<boolean>;
    holdStaff(maker: StaffUser, requestId: string, change: HeldStaffChange): Promise<ApprovalAnswer>;
  };
}

const fields = (form: FormData) => Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));

const roleChange = z.object({ id: staffIdInput, role: z.enum(roles, { message: `role: expected one of ${roles.join(", ")}` }) });
const lockChange = z.object({ id: staffIdInput, locked: z.enum(["true", "false"], { message: "locked: expected true or false" }) });

/** The admin's staff changes (server actions), each checked, validated and audited. */
export function staffActions(dependencies: StaffActionDependencies) {
  /**
   * Runs one audited staff change for the signed-in admin: reads the user as they are (the audit "before"), performs
   * the change only once its audit record is written, and stores the user as they are afterwards (null once removed).
   * The admin's own account is off limits, so the console can never lose its last admin by a slip. `held` says whether
   * the change waits for another admin instead (four-eyes); then it is asked for, not made.
   */
  async function staffChange(
    action: string,
    target: { id: string; isNew?: boolean },
    perform: (db: ConsoleDb, actor: StaffUser) => Promise<StaffUser | null>,
    done: string,
    held?: { when(before: StaffUser | null): boolean; change(before: StaffUser | null): HeldStaffChange },
  ): Promise<StaffActionState> {
    const actor = await dependencies.requireUser("staff:manage");
    if (target.id === actor.id) return { error: "You cannot change your own account here; ask another admin.", done: null };
    const db = await dependencies.db();
    const before = target.isNew ? null : await findStaffById(db, target.id);
    if (!target.isNew && !before) return { error: `id: no staff user ${target.id}`, done: null };
    if (held?.when(before) && (await dependencies.approvals.required(staffChangesEnvironment))) {
      const { approval } = await dependencies.approvals.holdStaff(actor, dependencies.newRequestId(), held.change(before));
      return { error: null, done: `Awaiting approval by another admin (four-eyes): request ${approval.id} at ${approval.url}; nothing changed yet` };
    }
    try {
      const entry = { actor, environment: null, action, targetId: target.id, before, requestId: dependencies.newRequestId() };
      const after = await dependencies.audited(entry, () => perform(db, actor), { after: (result) => result });
      dependencies.changed();
      return { error: null, done: `${done}: ${(after ?? before)?.email}` };
    } catch (error) {
      if (error instanceof EmailTakenError) return { error: `email: ${error.message}`, done: null };
      throw error;
    }
  }

  return {
    async createStaffUser(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
      const input = newStaffInput.safeParse(fields(form));
      if (!input.success) return { error: firstIssue(input.error), done: null };
      const id = newStaffId();
      const { email, name, role } = input.data;
      const password = input.data.password || null;
      return staffChange(
        "staff.create",
        { id, isNew: true },
        (db, actor) => createStaff(db, { id, email, name, role, password, createdBy: actor.id }),
        "Created",
        {
          when: () => staffChangeHeld(null, role),
          change: () => ({ action: "staff.create", user: { id, email: normalizeEmail(email), name: name.trim(), role }, password }),
        },
      );
    },

    async changeStaffRole(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
      const input = roleChange.safeParse(fields(form));
      if (!input.success) return { error: firstIssue(input.error), done: null };
      const { id, role } = input.data;
      return staffChange(
        "staff.role_change",
        { id },
        async (db, actor) => (await updateStaff(db, id, { role, roleChangedBy: actor.id }))?.after ?? null,
        "Role changed",
        { when: (before) => staffChangeHeld(before!.role, role), change: (before) => ({ action: "staff.role_change", user: before!, role }) },
      );
    },

    async setStaffLocked(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
      const input = lockChange.safeParse(fields(form));
      if (!input.success) return { error: firstIssue(input.error), done: null };
      const { id } = input.data;
      const locked = input.data.locked === "true";
      return staffChange(
        locked ? "staff.lock" : "staff.unlock",
        { id },
        async (db) => (await updateStaff(db, id, { locked }))?.after ?? null,
        locked ? "Locked" : "Unlocked",
      );
    },

    async removeStaffUser(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
      const id = staffIdInput.safeParse(form.get("id"));
      if (!id.success) return { error: firstIssue(id.error), done: null };
      return staffChange(
        "staff.remove",
        { id: id.data },
        async (db) => {
          await removeStaff(db, id.data);
          return null;
        },
        "Removed",
      );
    },

    /** Lifts the sign-in throttle's lockout of one user's email (the per-address limit stays). */
    async clearSignInLockout(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
      const id = staffIdInput.safeParse(form.get("id"));
      if (!id.success) return { error: firstIssue(id.error), done: null };
      return staffChange(
        "staff.sign_in_lockout.clear",
        { id: id.data },
        async (db) => {
          const user = await findStaffById(db, id.data);
          if (user) await clearAttempts(db, userKey(user.email), perUserRule);
          return user;
        },
        "Sign-in lockout cleared",
      );
    },

    /** "Sign out everywhere": ends every session of one user at once. */
    async endStaffSessions(_previous: StaffActionState, form: FormData): Promise<StaffActionState> {
      const id = staffIdInput.safeParse(form.get("id"));
      if (!id.success) return { error: firstIssue(id.error), done: null };
      return staffChange(
        "staff.sessions.end",
        { id: id.data },
        async (db) => {
          await endUserSessions(db, id.data);
          return findStaffById(db, id.data);
        },
        "Signed out everywhere",
      );
    },
  };
}
