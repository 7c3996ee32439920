import Link from "next/link";
import { AuditFilters } from "@/components/audit/audit-filters";
import { AuditFilterChips, AuditTable } from "@/components/audit/audit-table";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { parseAuditQuery } from "@/lib/audit/filter-input";
import { listAuditActions, listAuditRecords } from "@/lib/audit/trail";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { readDisplayZone } from "@/lib/time-zone-server";

export const metadata = { title: "Audit log" };

const pageSize = 50;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireUser("audit:read");
  const query = parseAuditQuery(await searchParams);
  const { db } = await consoleDb();
  const filter = query.ok ? query.filter : {};
  const [records, actions, { zone }, environment] = await Promise.all([
    query.ok ? listAuditRecords(db, filter, { limit: pageSize, after: query.after }) : Promise.resolve([]),
    listAuditActions(db),
    readDisplayZone(),
    getActiveEnvironment(),
  ]);
  const next = records.length === pageSize ? new URLSearchParams({ ...filter, after: String(records.at(-1)!.id) }) : null;
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Append-only: every change made through the console and every reveal of personal data, newest first."
      />
      <AuditFilters filter={filter} actions={actions} />
      {query.ok ? null : (
        <div className="mb-4">
          <Notice tone="error" testId="audit-filter-error">
            {query.error}
          </Notice>
        </div>
      )}
      <AuditFilterChips filter={filter} />
      <AuditTable records={records} zone={zone} environment={environment} />
      {next ? (
        <Link href={`/audit?${next}`} className="mt-4 inline-block text-sm underline">
          Older records
        </Link>
      ) : null}
    </>
  );
}
