"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { StatusBadge } from "@/components/bank/status-badge";
import { Timestamp } from "@/components/bank/value";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import type { BusinessLinks, LinkedChange, LinkedObject, PersonLinks } from "@/lib/customer/links";
import { detailHref, listHref, resourceRoutes } from "@/lib/resources/routes";
import { CustomerSection, IndexSource, type IndexAbout } from "./customer-section";

type LinksAnswer = (PersonLinks | BusinessLinks) & { index: IndexAbout };

/**
 * A person's or a business's page, inline: what the console's index links to its application (lib/customer/links.ts)
 * and the index's recent changes of those objects. No money movement names a person or a business, so none is listed
 * here; a person's accounts lead to the lists of their movements (docs/console-pages.md says why).
 */
export function CustomerLinks({ id }: DetailExtraProps) {
  const { environment } = useConsoleSession();
  const query = useQuery({
    queryKey: bankKeys.customerMovements(environment, id, "links"),
    queryFn: ({ signal }) => fetchConsole<LinksAnswer>(`/api/customer/${encodeURIComponent(id)}/links`, { signal }),
  });
  const answer = query.data;
  return (
    <CustomerSection title="Linked in the index" testId="customer-links">
      {query.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          What the index links could not be read: {query.error.message}
        </p>
      ) : !answer ? (
        <p className="text-sm text-muted">Reading the index…</p>
      ) : (
        <>
          <IndexSource index={answer.index} />
          {answer.kind === "person" ? <PersonView links={answer} /> : <BusinessView links={answer} />}
          <Changes changes={answer.changes} />
        </>
      )}
    </CustomerSection>
  );
}

function PersonView({ links }: { links: PersonLinks }) {
  return (
    <>
      <p className="mb-2 text-sm">
        {links.personId ? (
          <>
            Person <span className="font-mono text-xs">{links.personId}</span>, created by this application.
          </>
        ) : (
          "No person created yet: cards and deposit sweeps name a person, so nothing else links here."
        )}
      </p>
      <Objects title="Cards" objects={links.cards} empty="No card names this person." />
      <Objects title="Deposit sweeps" objects={links.depositSweeps} empty="No deposit sweep names this person." />
      <Objects title="Business applications naming this person as an owner" objects={links.businesses} empty="None." />
      <Part title="Accounts of these cards and sweeps">
        {links.accountIds.length === 0 ? (
          <p className="text-sm text-muted">None.</p>
        ) : (
          <>
            <p className="mb-1 text-xs text-muted">
              The bank names no account holder, so an account&apos;s movements are not counted as this person&apos;s: each list shows them.
            </p>
            <ul className="flex flex-col gap-1 text-sm">
              {links.accountIds.map((account) => (
                <li key={account} data-testid="customer-account" className="flex flex-wrap items-baseline gap-x-3">
                  <span className="font-mono text-xs">{account}</span>
                  <Link className="text-xs underline" href={listHref("ach", { account_id: account })}>
                    ACH transfers
                  </Link>
                  <Link className="text-xs underline" href={listHref("fednow", { account_id: account })}>
                    Instant payments
                  </Link>
                  <Link className="text-xs underline" href={listHref("network_transfer", { from_account_id: account })}>
                    Network transfers from it
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </Part>
    </>
  );
}

function BusinessView({ links }: { links: BusinessLinks }) {
  return (
    <>
      <p className="mb-2 text-xs text-muted">
        The bank names no account of a business, so no money movement links to it; its owners&apos; applications do.
      </p>
      <Part title="Owners">
        {links.owners.length === 0 ? (
          <p className="text-sm text-muted">The index holds none of its owners&apos; applications.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {links.owners.map((owner) => (
              <li key={owner.id} data-testid="customer-linked" data-id={owner.id} className="flex flex-wrap items-baseline gap-x-2">
                <Link href={detailHref(owner.resource, owner.id)} className="font-mono text-xs break-all underline">
                  {owner.id}
                </Link>
                <span className="font-medium">{owner.name ?? ""}</span>
                <span className="text-xs text-muted">
                  {[
                    owner.roles?.join(", ").replaceAll("_", " "),
                    owner.ownership !== null && owner.ownership !== undefined ? `${owner.ownership}%` : null,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                  {owner.personId ? ` · person ${owner.personId}` : " · no person yet"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Part>
    </>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mb-3">
      <h3 className="mb-1 text-xs font-medium text-muted">{title}</h3>
      {children}
    </div>
  );
}

function Objects({ title, objects, empty }: { title: string; objects: LinkedObject[]; empty: string }) {
  return (
    <Part title={`${title}${objects.length > 0 ? ` (${objects.length})` : ""}`}>
      {objects.length === 0 ? (
        <p className="text-sm text-muted">{empty}</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {objects.map((object) => (
            <li key={object.id} data-testid="customer-linked" data-id={object.id} className="flex flex-wrap items-baseline gap-x-2">
              <Link href={detailHref(object.resource, object.id)} className="font-mono text-xs break-all underline">
                {object.id}
              </Link>
              {object.name ? <span>{object.name}</span> : null}
              {object.status ? <StatusBadge status={object.status} /> : null}
              {object.accountId ? <span className="font-mono text-xs text-muted">{object.accountId}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Part>
  );
}

function Changes({ changes }: { changes: LinkedChange[] }) {
  return (
    <Part title="Recent changes the index saw">
      {changes.length === 0 ? (
        <p className="text-sm text-muted">None.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {changes.map((change) => (
            <li key={`${change.id}-${change.version}`} data-testid="customer-change" className="flex flex-wrap items-baseline gap-x-2">
              <span className="text-xs">
                <Timestamp value={change.seenAt} compact />
              </span>
              <Link href={detailHref(change.resource, change.id)} className="font-mono text-xs break-all underline">
                {change.id}
              </Link>
              <span className="text-xs text-muted">
                {resourceRoutes[change.resource].singular}{" "}
                {change.version === 1
                  ? "first seen"
                  : change.fields.length > 0
                    ? `changed ${change.fields.join(", ").replaceAll("_", " ")}`
                    : "seen again"}
              </span>
              {change.status ? <StatusBadge status={change.status} /> : null}
            </li>
          ))}
        </ul>
      )}
    </Part>
  );
}
