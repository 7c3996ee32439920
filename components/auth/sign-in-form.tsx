"use client";

import { useActionState } from "react";
import { signInWithPassword, type SignInState } from "@/lib/actions/sign-in";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

export function SignInForm({ from }: { from: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInWithPassword, { error: null });
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="from" value={from} />
      {/* React resets the form after the action; the key makes the email field take the kept value back. */}
      <TextField
        key={`email:${state.email ?? ""}`}
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={state.email}
        autoFocus={!state.email}
      />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      {state.error ? (
        <Notice tone="error" testId="sign-in-error">
          {state.error}
        </Notice>
      ) : null}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
