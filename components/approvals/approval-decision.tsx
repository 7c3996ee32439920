"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { Button } from "@/components/ui/button";
import { approvalNoteLimit } from "@/lib/approvals/codes";
import { fetchConsole } from "@/lib/bank/browser";

type Decision = "approve" | "reject" | "withdraw";

/**
 * Approve or reject (another person holding the change's permission), or withdraw (the maker). The server decides
 * who may, whatever this shows: the maker is refused approval under any session (four-eyes).
 */
export function ApprovalDecision({ id, mayDecide, isMaker, permission }: { id: number; mayDecide: boolean; isMaker: boolean; permission: string }) {
  const router = useRouter();
  const [note, setNote] = useState("");
  const [pending, setPending] = useState<Decision | null>(null);
  const [error, setError] = useState<unknown>(null);
  async function decide(decision: Decision) {
    setPending(decision);
    setError(null);
    try {
      await fetchConsole(`/api/approvals/${id}/${decision}`, { method: "POST", body: JSON.stringify(note.trim() ? { note } : {}) });
      router.refresh();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  }
  const submit = (event: FormEvent) => event.preventDefault();
  return (
    <form onSubmit={submit} aria-label="Decision" className="space-y-2 rounded-md border border-line bg-surface p-4" data-testid="approval-decision">
      {isMaker ? (
        <p className="text-sm text-muted">
          You asked for this change: another staff member holding {permission} must approve it. You may withdraw it.
        </p>
      ) : mayDecide ? null : (
        <p className="text-sm text-muted">Approving this change needs {permission}, which your role does not hold.</p>
      )}
      {mayDecide || isMaker ? (
        <div>
          <label htmlFor="approval-note" className="block text-sm font-medium text-muted">
            Note {mayDecide ? "(required to reject)" : "(optional)"}
          </label>
          <textarea
            id="approval-note"
            value={note}
            maxLength={approvalNoteLimit}
            onChange={(event) => setNote(event.target.value)}
            rows={3}
            className="mt-1 block w-full rounded-md border border-line bg-surface px-2 py-1.5 text-sm"
          />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {mayDecide ? (
          <>
            <Button type="button" disabled={pending !== null} aria-busy={pending === "approve"} onClick={() => decide("approve")}>
              {pending === "approve" ? "Approving and sending…" : "Approve and send"}
            </Button>
            <Button
              type="button"
              variant="danger"
              disabled={pending !== null || !note.trim()}
              aria-busy={pending === "reject"}
              onClick={() => decide("reject")}
            >
              Reject
            </Button>
          </>
        ) : null}
        {isMaker ? (
          <Button type="button" variant="secondary" disabled={pending !== null} aria-busy={pending === "withdraw"} onClick={() => decide("withdraw")}>
            Withdraw
          </Button>
        ) : null}
      </div>
      {error ? <ActionError error={error} /> : null}
    </form>
  );
}
