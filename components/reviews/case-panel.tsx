import "server-only";
import Link from "next/link";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import { can } from "@/lib/permissions";
import { readCase } from "@/lib/reviews/store";
import { CaseWorkspaceLoader } from "./case-workspace-loader";

/**
 * "Compliance review" on an application's page (docs/reviews.md), for roles that review: read on the server on every
 * request, so a server action's revalidation shows the change at once.
 */
export async function CasePanel({ user, environment, id }: { user: StaffUser; environment: Environment; id: string }) {
  if (!can(user.role, "review:decide") && !can(user.role, "review:confirm")) return null;
  const review = await readCase((await consoleDb()).db, environment, id);
  const record = (format: string) => `/api/reviews/${encodeURIComponent(id)}/record?format=${format}`;
  return (
    <section aria-labelledby="case-title" data-testid="case-panel" className="mt-4 rounded-md border border-line bg-surface p-3">
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="case-title" className="text-xs font-semibold tracking-wide text-muted uppercase">
          Compliance review
        </h2>
        {review ? (
          <span className="flex gap-3 text-xs">
            <a href={record("html")} download className="link" data-testid="record-html">
              Case record (HTML, printable)
            </a>
            <a href={record("json")} download className="link" data-testid="record-json">
              Case record (JSON)
            </a>
          </span>
        ) : null}
      </div>
      {review ? (
        <p className="mb-3 text-xs text-muted" data-testid="decision-reach">
          The decision is the console&apos;s record and is not sent to the bank (the bank&apos;s API has no decision endpoint). An examiner finds it
          in the case record (the downloads above) and in the{" "}
          <Link href={`/audit?${new URLSearchParams({ target: id })}`} className="link underline">
            audit log
          </Link>
          .
        </p>
      ) : null}
      {review ? (
        <CaseWorkspaceLoader
          review={review}
          viewer={{
            id: user.id,
            canDecide: can(user.role, "review:decide"),
            canConfirm: can(user.role, "review:confirm"),
            canUnassignAnyone: can(user.role, "staff:manage"),
          }}
        />
      ) : (
        <p className="text-sm text-muted">
          This application is not in the console&apos;s index of the {environment} bank yet; its review opens once the index has it.
        </p>
      )}
    </section>
  );
}
