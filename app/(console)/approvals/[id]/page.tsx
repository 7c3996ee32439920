import { forbidden, notFound } from "next/navigation";
import { ApprovalDetail } from "@/components/approvals/approval-detail";
import { readChangeRequest, viewOf } from "@/lib/approvals/store";
import { requireUser } from "@/lib/auth/current-user";
import { consoleDb } from "@/lib/db/console";
import { can, type Permission } from "@/lib/permissions";

export const metadata = { title: "Change request · Bank console" };

export default async function ApprovalPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser("change:approve");
  const { id } = await params;
  if (!/^[1-9][0-9]{0,15}$/.test(id)) notFound();
  const row = await readChangeRequest((await consoleDb()).db, Number(id));
  if (!row) notFound();
  const request = viewOf(row);
  // A change the viewer may not make (bank credentials, for operations) is not shown to them, unless they asked for it.
  if (!can(user.role, request.permission as Permission) && request.maker.id !== user.id) forbidden();
  return (
    <ApprovalDetail
      request={request}
      viewer={{
        id: user.id,
        mayDecide: can(user.role, request.permission as Permission) && request.maker.id !== user.id,
        isMaker: request.maker.id === user.id,
      }}
    />
  );
}
