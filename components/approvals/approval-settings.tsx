"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { StatusBadge } from "@/components/bank/status-badge";
import { Timestamp } from "@/components/format/timestamp";
import { Button } from "@/components/ui/button";
import { AwaitingApproval } from "@/components/approvals/awaiting-approval";
import { isApprovalAnswer, switchingOffNeedsApproval, type ApprovalAnswer } from "@/lib/approvals/codes";
import type { ApprovalSetting } from "@/lib/approvals/store";
import { fetchConsole } from "@/lib/bank/browser";
import { environments, type Environment } from "@/lib/credentials/environments";

/**
 * Per environment, whether changes wait for a second person; admins (`approvals:configure`) switch it. Switching it
 * off in production is itself held for a second admin: the answer is the request, shown until approved.
 */
export function ApprovalSettings({ settings, canConfigure }: { settings: Record<Environment, ApprovalSetting>; canConfigure: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState<Environment | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [held, setHeld] = useState<{ environment: Environment; approval: ApprovalAnswer["approval"] } | null>(null);
  async function switchTo(environment: Environment, required: boolean) {
    setPending(environment);
    setError(null);
    setHeld(null);
    try {
      const answer = await fetchConsole<unknown>("/api/approvals/settings", { method: "PUT", body: JSON.stringify({ environment, required }) });
      if (isApprovalAnswer(answer)) setHeld({ environment, approval: answer.approval });
      router.refresh();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  }
  return (
    <section aria-label="Four-eyes settings" className="mb-4 rounded-md border border-line bg-surface p-4">
      <h2 className="mb-2 text-sm font-semibold">Four-eyes on changes</h2>
      <ul className="grid gap-2 sm:grid-cols-2">
        {environments.map((environment) => {
          const setting = settings[environment];
          const heldSwitch = setting.required && switchingOffNeedsApproval[environment];
          const label = `${setting.required ? "Turn off" : "Turn on"} four-eyes in ${environment}${heldSwitch ? " (a second admin approves)" : ""}`;
          return (
            <li
              key={environment}
              className="flex items-start justify-between gap-3 rounded-md border border-line p-3 text-sm"
              data-testid={`approval-setting-${environment}`}
              data-required={setting.required}
            >
              <div className="min-w-0">
                <p className="flex items-center gap-2">
                  <span className="font-medium">{environment}</span>
                  <StatusBadge status={setting.required ? "on" : "off"} tone={setting.required ? "warning" : "neutral"} />
                </p>
                <p className="mt-0.5 text-xs text-muted">
                  {setting.required ? "Every change waits for a second person" : "Changes are sent at once"};{" "}
                  {setting.updatedAt ? (
                    <>
                      set by {setting.updatedBy} at <Timestamp value={setting.updatedAt} compact />
                    </>
                  ) : (
                    "the default"
                  )}
                </p>
              </div>
              {canConfigure ? (
                <Button
                  type="button"
                  size="compact"
                  variant="secondary"
                  className="shrink-0"
                  aria-label={label}
                  title={label}
                  disabled={pending !== null}
                  aria-busy={pending === environment}
                  onClick={() => switchTo(environment, !setting.required)}
                >
                  {setting.required ? "Turn off" : "Turn on"}
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {held ? (
        <div className="mt-3">
          <AwaitingApproval approval={held.approval} meanwhile={`four-eyes stays on in ${held.environment}`} approver="Another admin" />
        </div>
      ) : null}
      {error ? <ActionError error={error} /> : null}
    </section>
  );
}
