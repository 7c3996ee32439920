"use client";

import { useActionState } from "react";
import { changeStaffRole, clearSignInLockout, endStaffSessions, removeStaffUser, setStaffLocked, type StaffActionState } from "@/lib/actions/staff";
import { Button } from "@/components/ui/button";
import type { StaffUser } from "@/lib/auth/staff-user";
import { roles } from "@/lib/permissions";

const initial: StaffActionState = { error: null, done: null };

/**
 * Role, lock and remove controls for one staff user, "sign out everywhere" while they have sessions, and clearing a
 * sign-in lockout when the throttle holds one; disabled on the admin's own row (no self lock-out).
 */
export function StaffRowActions(props: { user: StaffUser; isSelf: boolean; signInLockedOut: boolean; activeSessions: number }) {
  const { user, isSelf, signInLockedOut, activeSessions } = props;
  const [roleState, roleAction, rolePending] = useActionState(changeStaffRole, initial);
  const [lockState, lockAction, lockPending] = useActionState(setStaffLocked, initial);
  const [removeState, removeAction, removePending] = useActionState(removeStaffUser, initial);
  const [lockoutState, lockoutAction, lockoutPending] = useActionState(clearSignInLockout, initial);
  const [sessionsState, sessionsAction, sessionsPending] = useActionState(endStaffSessions, initial);
  const error = roleState.error ?? lockState.error ?? removeState.error ?? lockoutState.error ?? sessionsState.error;
  const title = isSelf ? "You cannot change your own account" : undefined;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form action={roleAction} className="flex items-center gap-1">
        <input type="hidden" name="id" value={user.id} />
        <select
          name="role"
          defaultValue={user.role}
          aria-label={`Role of ${user.email}`}
          disabled={isSelf || rolePending}
          title={title}
          className="rounded border border-line px-1 py-1 text-xs"
        >
          {roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <Button type="submit" variant="secondary" disabled={isSelf || rolePending} title={title}>
          Save role
        </Button>
      </form>
      <form action={lockAction}>
        <input type="hidden" name="id" value={user.id} />
        <input type="hidden" name="locked" value={String(!user.locked)} />
        <Button type="submit" variant="secondary" disabled={isSelf || lockPending} title={title}>
          {user.locked ? "Unlock" : "Lock"}
        </Button>
      </form>
      {activeSessions > 0 ? (
        <form action={sessionsAction}>
          <input type="hidden" name="id" value={user.id} />
          <Button type="submit" variant="secondary" disabled={isSelf || sessionsPending} title={title}>
            Sign out everywhere
          </Button>
        </form>
      ) : null}
      {signInLockedOut ? (
        <form action={lockoutAction}>
          <input type="hidden" name="id" value={user.id} />
          <Button type="submit" variant="secondary" disabled={isSelf || lockoutPending} title={title}>
            Clear sign-in lockout
          </Button>
        </form>
      ) : null}
      <form
        action={removeAction}
        onSubmit={(event) => {
          if (!window.confirm(`Remove ${user.email}? They lose access at once.`)) event.preventDefault();
        }}
      >
        <input type="hidden" name="id" value={user.id} />
        <Button type="submit" variant="danger" disabled={isSelf || removePending} title={title}>
          Remove
        </Button>
      </form>
      {error ? <span className="text-xs text-red-700">{error}</span> : null}
    </div>
  );
}
