import { ApprovalList } from "@/components/approvals/approval-list";
import { ApprovalSettings } from "@/components/approvals/approval-settings";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { approvalFilterFrom } from "@/lib/approvals/filter";
import { listChangeRequests, readApprovalSettings } from "@/lib/approvals/store";
import { requireUser } from "@/lib/auth/current-user";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { can, permissionsOf } from "@/lib/permissions";

export const metadata = { title: "Approvals · Bank console" };

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser("change:approve");
  const query = await searchParams;
  const { filter, problems } = approvalFilterFrom(query);
  const { db } = await consoleDb();
  const [{ rows, more }, settings] = await Promise.all([
    listChangeRequests(db, filter, { id: user.id, permissions: permissionsOf(user.role) }),
    readApprovalSettings(db),
  ]);
  return (
    <>
      <PageHeader
        title="Approvals"
        description={`Changes held for a second person where four-eyes is on: userdata edits, webhook changes, bank credentials, and switching four-eyes off in production. Another staff member holding the same permission approves (the console then sends it) or rejects; the maker may withdraw. A request expires after ${env.APPROVAL_EXPIRY_HOURS} h.`}
      />
      <ApprovalSettings settings={settings} canConfigure={can(user.role, "approvals:configure")} />
      {problems.length ? (
        <div className="mb-4">
          <Notice tone="error" testId="approvals-filter-error">
            {problems.join("; ")}
          </Notice>
        </div>
      ) : null}
      <ApprovalList rows={rows} more={more} filter={filter} userId={user.id} />
    </>
  );
}
