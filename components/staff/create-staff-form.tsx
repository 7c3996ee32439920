"use client";

import { useActionState } from "react";
import { createStaffUser, type StaffActionState } from "@/lib/actions/staff";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { roles } from "@/lib/permissions";

const roleOptions = roles.map((role) => ({ value: role, label: role }));

export function CreateStaffForm() {
  const [state, action, pending] = useActionState<StaffActionState, FormData>(createStaffUser, { error: null, done: null });
  return (
    <form action={action} className="grid gap-3 rounded-md border border-line bg-surface p-4 sm:grid-cols-2" aria-label="New staff user">
      <TextField label="Email" name="email" type="email" required />
      <TextField label="Name" name="name" required />
      <SelectField label="Role" name="role" options={roleOptions} defaultValue="viewer" />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters; leave empty for a single sign-on only user."
      />
      <div className="flex items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={pending}>
          Create staff user
        </Button>
        {state.error ? (
          <Notice tone="error" testId="staff-form-result">
            {state.error}
          </Notice>
        ) : null}
        {state.done ? (
          <Notice tone="success" testId="staff-form-result">
            {state.done}
          </Notice>
        ) : null}
      </div>
    </form>
  );
}
