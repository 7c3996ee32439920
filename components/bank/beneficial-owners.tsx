"use client";

import { detailHref } from "@/lib/resources/routes";
import { IdValue } from "./id-value";

interface Owner {
  id: string;
  ownership_percentage: number;
  roles: string[];
  title: string;
}

function ownersOf(value: unknown): Owner[] {
  return Array.isArray(value) ? (value.filter((owner) => owner && typeof owner === "object") as Owner[]) : [];
}

/** Percentages may carry decimals; summed in hundredths so 33.33 + 33.33 + 33.34 is exactly 100. */
function ownershipHundredths(owners: Owner[]): number {
  return owners.reduce((sum, owner) => sum + Math.round(Number(owner.ownership_percentage) * 100), 0);
}

/** What a reviewer must not miss: ownership over 100% in total, and no controlling person. */
export function ownershipFlags(owners: Owner[]): string[] {
  const total = ownershipHundredths(owners);
  return [
    total > 10_000 ? `Ownership adds up to ${total / 100}%, more than 100%.` : null,
    owners.some((owner) => owner.roles?.includes("control_person")) ? null : "No controlling person (role control_person) is listed.",
  ].filter((flag): flag is string => flag !== null);
}

/**
 * The people behind a business application, for review: each linked to their person application, with ownership,
 * roles and title. Flags what a reviewer must not miss: ownership adding up to more than 100%, and no controlling
 * person.
 */
export function BeneficialOwners({ owners: value }: { owners: unknown }) {
  const owners = ownersOf(value);
  const totalHundredths = ownershipHundredths(owners);
  const total = totalHundredths / 100;
  const flags = ownershipFlags(owners);

  return (
    <section aria-labelledby="section-owners" className="rounded-md border border-line bg-surface p-3 lg:col-span-2" data-testid="beneficial-owners">
      <h2 id="section-owners" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Beneficial owners
      </h2>
      {flags.length > 0 ? (
        <ul role="alert" className="mb-2 space-y-1 text-sm" data-testid="owner-flags">
          {flags.map((flag) => (
            <li
              key={flag}
              className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
            >
              {flag}
            </li>
          ))}
        </ul>
      ) : null}
      {/* Its own scrolling box: on a phone the table is wider than the card. */}
      <div className="relative overflow-x-auto" tabIndex={0}>
        <table className="min-w-full text-sm">
          <caption className="sr-only">Beneficial owners of this business</caption>
          <thead className="border-b border-line text-left text-[11px] tracking-wide text-muted uppercase">
            <tr>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Person application
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-semibold">
                Ownership
              </th>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Roles
              </th>
              <th scope="col" className="py-1 font-semibold">
                Title
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {owners.map((owner) => (
              <tr key={owner.id} data-testid="owner-row">
                <td className="py-1 pr-3">
                  <IdValue id={owner.id} href={detailHref("person_application", owner.id)} full />
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">{owner.ownership_percentage}%</td>
                <td className="py-1 pr-3">{owner.roles?.map((role) => role.replaceAll("_", " ")).join(", ")}</td>
                <td className="py-1">{owner.title}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-line">
            <tr>
              <th scope="row" className="py-1 pr-3 text-left text-xs font-semibold text-muted">
                Total
              </th>
              <td className={`py-1 pr-3 text-right font-semibold tabular-nums ${totalHundredths > 10_000 ? "text-red-700 dark:text-red-300" : ""}`}>
                {total}%
              </td>
              <td colSpan={2} />
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
