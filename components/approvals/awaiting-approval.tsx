import Link from "next/link";
import { Timestamp } from "@/components/bank/value";
import type { ApprovalAnswer } from "@/lib/approvals/codes";

/**
 * Shown where a change was held for approval instead of sent (docs/approvals.md): nothing changed at the bank yet;
 * the link opens the request, where the maker may withdraw it and another person approves or rejects it.
 */
export function AwaitingApproval({
  approval,
  meanwhile = "nothing was sent to the bank yet",
  approver = "Another staff member",
}: {
  approval: ApprovalAnswer["approval"] | null | undefined;
  /** What holds until then. */
  meanwhile?: string;
  /** Who may approve it. */
  approver?: string;
}) {
  if (!approval) return null;
  return (
    <p
      role="status"
      data-testid="awaiting-approval"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      Awaiting approval: {meanwhile}. {approver} must approve{" "}
      <Link href={approval.url} className="font-medium underline">
        request {approval.id}
      </Link>{" "}
      before <Timestamp value={approval.expiresAt} compact />.
    </p>
  );
}
