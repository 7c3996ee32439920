"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { clearBankCredentials, saveBankCredentials, type CredentialsActionState } from "@/lib/actions/credentials";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import type { ConnectionSummary } from "@/lib/credentials/store";

const initial: CredentialsActionState = { error: null, done: null };
const authOptions = [
  { value: "basic", label: "API key id and secret (HTTP Basic)" },
  { value: "bearer", label: "Bearer token" },
];

/** Replaces one environment's credentials. The secret fields always start empty: stored secrets never reach the browser. */
export function CredentialsForm({ summary }: { summary: ConnectionSummary }) {
  const [state, save, saving] = useActionState(saveBankCredentials, initial);
  const [clearState, clear, clearing] = useActionState(clearBankCredentials, initial);
  const [authType, setAuthType] = useState(summary.authType ?? "basic");
  const result = state.error || state.done ? state : clearState;
  return (
    <div className="space-y-3">
      <form action={save} className="grid gap-3 sm:grid-cols-2" aria-label={`${summary.environment} credentials`}>
        <input type="hidden" name="environment" value={summary.environment} />
        <TextField label="Base URL" name="baseUrl" type="url" required defaultValue={summary.baseUrl ?? ""} placeholder="https://api.bank.example" />
        <SelectField
          label="Authentication"
          name="authType"
          options={authOptions}
          value={authType}
          onChange={(event) => setAuthType(event.target.value as "basic" | "bearer")}
        />
        {authType === "basic" ? (
          <>
            <TextField label="API key id" name="keyId" required defaultValue={summary.keyId ?? ""} autoComplete="off" />
            <TextField
              label="API key secret"
              name="secret"
              type="password"
              required
              autoComplete="new-password"
              hint="Enter it again to save; the stored one is never shown."
            />
          </>
        ) : (
          <TextField
            label="Bearer token"
            name="token"
            type="password"
            required
            autoComplete="off"
            hint="Enter it again to save; the stored one is never shown."
          />
        )}
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={saving}>
            Save {summary.environment} credentials
          </Button>
        </div>
      </form>
      {summary.source === "saved" ? (
        <form action={clear}>
          <input type="hidden" name="environment" value={summary.environment} />
          <Button type="submit" variant="secondary" disabled={clearing}>
            Remove saved {summary.environment} credentials
          </Button>
        </form>
      ) : null}
      {result.error ? (
        <Notice tone="error" testId={`credentials-result-${summary.environment}`}>
          {result.error}
        </Notice>
      ) : null}
      {result.done ? (
        <Notice tone={result.approval ? "info" : "success"} testId={`credentials-result-${summary.environment}`}>
          {result.done}
          {result.approval ? (
            <>
              {" "}
              <Link href={result.approval.url} className="font-medium underline">
                Open request {result.approval.id}
              </Link>
            </>
          ) : null}
        </Notice>
      ) : null}
    </div>
  );
}
