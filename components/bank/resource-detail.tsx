"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useCan, useConsoleSession } from "@/components/console/providers";
import { useRefreshOnChange } from "@/components/live/use-refresh-on-change";
import { bankApiPath, ConsoleApiError, fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { inSentence, valueAt } from "@/lib/format";
import { listHref, resources, type Field, type ResourceName } from "@/lib/resources";
import { BeneficialOwners } from "./beneficial-owners";
import { detailExtras, type DetailContext } from "./detail-extras";
import { ErrorState } from "./error-state";
import { RevealControl, type Revealed } from "./reveal-control";
import type { ServerError } from "./resource-list";
import { StatusBadge } from "./status-badge";
import { FieldValue, IdValue, JsonBlock } from "./value";

type BankObject = Record<string, unknown>;

/**
 * The one detail layout of every bank resource: its definition's sections, labelled in plain words, links to related
 * objects and lists, and the exact object under "Raw JSON". Personal data stays masked unless a role that may reveal
 * it asks (audited); a revealed value is marked and lives only as long as this page.
 */
export function ResourceDetail({
  resource,
  id,
  serverError,
  actions,
  context = {},
}: {
  resource: ResourceName;
  id: string;
  serverError?: ServerError;
  actions?: ReactNode;
  /** What the server tells this resource's actions (e.g. the bank's URL for a card token proof); never credentials. */
  context?: DetailContext;
}) {
  const definition = resources[resource];
  const { Actions, Panel } = detailExtras[resource] ?? {};
  const { environment } = useConsoleSession();
  const canReveal = useCan("pii:reveal");
  const [tab, setTab] = useState<"fields" | "raw">("fields");
  const [retried, setRetried] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  // The object itself refetches on its own (the live provider marks its detail stale); this redraws its server-read timeline.
  useRefreshOnChange((change) => change.resource === resource && change.id === id);
  const query = useQuery({
    queryKey: bankKeys.detail(environment, resource, id),
    queryFn: () => fetchConsole<BankObject>(bankApiPath(`${definition.apiPath}/${encodeURIComponent(id)}`)),
    enabled: !serverError || retried,
  });

  const error = serverError && !retried ? new ConsoleApiError(serverError.status, serverError.code, serverError.message, null) : query.error;
  if (error) {
    return (
      <ErrorState
        error={error}
        subject={`${inSentence(definition.singular)} ${id}`}
        onRetry={() => {
          setRetried(true);
          void query.refetch();
        }}
      />
    );
  }
  const masked = query.data;
  if (!masked) return <p className="text-sm text-muted">Loading {inSentence(definition.singular)}…</p>;
  const object = revealed?.object ?? masked;
  const revealedKeys = revealed ? changedKeys(masked, revealed.object) : new Set<string>();
  const status = typeof object.status === "string" ? object.status : null;

  return (
    <article aria-labelledby="detail-title" data-testid="resource-detail" data-id={id}>
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-muted">
            <Link href={definition.route} className="hover:underline">
              {definition.title}
            </Link>
          </p>
          <h1 id="detail-title" elementtiming="detail-title" className="mt-0.5 flex flex-wrap items-center gap-2 text-xl font-semibold">
            {definition.singular}
            {definition.headline ? <span className="font-normal text-muted">{<FieldValue field={definition.headline} object={object} />}</span> : null}
            {status ? <StatusBadge status={status} /> : null}
          </h1>
          <p className="mt-1">
            <IdValue id={id} full />
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {revealed || hasMaskedValues(masked) ? <RevealControl resource={resource} id={id} canReveal={canReveal} revealed={revealed} onChange={setRevealed} /> : null}
          {actions}
          {Actions ? <Actions id={id} object={masked} context={context} /> : null}
        </div>
      </header>

      <div role="tablist" aria-label="View" className="mb-3 flex gap-1 border-b border-line">
        {(["fields", "raw"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`panel-${name}`}
            onClick={() => setTab(name)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${tab === name ? "border-accent font-medium text-fg" : "border-transparent text-muted hover:text-fg"}`}
          >
            {name === "fields" ? "Details" : "Raw JSON"}
          </button>
        ))}
      </div>

      {tab === "raw" ? (
        <div role="tabpanel" id="panel-raw" aria-labelledby="tab-raw">
          <JsonBlock value={object} />
        </div>
      ) : (
        <div role="tabpanel" id="panel-fields" aria-labelledby="tab-fields" className="grid gap-3 lg:grid-cols-2">
          {definition.sections.map((section) => [
            <section key={section.title} aria-labelledby={`section-${slug(section.title)}`} className="rounded-md border border-line bg-surface p-3">
              <h2 id={`section-${slug(section.title)}`} className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
                {section.title}
              </h2>
              <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 text-sm">
                {section.fields.map((field) => (
                  <FieldRow key={field.key} field={field} object={object} revealed={revealedKeys.has(field.key.split(".")[0]!)} />
                ))}
              </dl>
            </section>,
            ...(definition.panels ?? [])
              .filter((panel) => panel.after === section.title)
              .map((panel) => <BeneficialOwners key={panel.kind} owners={valueAt(object, "person_applications")} />),
          ])}
          <UnlistedFields resource={resource} object={object} />
          {definition.relatedLists?.length ? (
            <section aria-labelledby="section-related" className="rounded-md border border-line bg-surface p-3">
              <h2 id="section-related" className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
                Related
              </h2>
              <ul className="space-y-1 text-sm">
                {definition.relatedLists.map((related) => (
                  <li key={related.label}>
                    <Link href={listHref(related.list, { [related.filter]: String(valueAt(object, related.from ?? "id")) })} className="text-accent hover:underline">
                      {related.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      )}
      {Panel ? <Panel id={id} object={masked} context={context} /> : null}
    </article>
  );
}

function FieldRow({ field, object, revealed }: { field: Field; object: BankObject; revealed: boolean }) {
  return (
    <>
      <dt className="text-muted">{field.label}</dt>
      <dd className={`min-w-0 break-words ${revealed ? "rounded bg-amber-100 px-1 ring-1 ring-amber-500 dark:bg-amber-950" : ""}`} data-field={field.key}>
        <FieldValue field={field} object={object} />
        {revealed ? <span className="ml-2 text-[11px] font-semibold uppercase text-amber-900 dark:text-amber-300">revealed</span> : null}
      </dd>
    </>
  );
}

/** Fields the bank sent that the definition does not place (a newer API): still shown, so nothing is hidden by omission. */
function UnlistedFields({ resource, object }: { resource: ResourceName; object: BankObject }) {
  const placed = new Set(resources[resource].sections.flatMap((section) => section.fields.map((field) => field.key.split(".")[0]!)));
  placed.add("person_applications");
  const extra = Object.keys(object).filter((key) => !placed.has(key));
  if (extra.length === 0) return null;
  return (
    <section aria-labelledby="section-other" className="rounded-md border border-line bg-surface p-3">
      <h2 id="section-other" className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
        Other fields
      </h2>
      <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 text-sm">
        {extra.map((key) => (
          <FieldRow key={key} field={{ key, label: key, format: typeof object[key] === "object" && object[key] !== null ? "json" : "mono" }} object={object} revealed={false} />
        ))}
      </dl>
    </section>
  );
}

/** Whether the console masked anything in this object (lib/pii.ts: `[masked]`, or a value starred but for its end). */
function hasMaskedValues(object: BankObject): boolean {
  return /"(\[masked\]|\*+[^"]*)"/.test(JSON.stringify(object));
}

function changedKeys(masked: BankObject, revealed: BankObject): Set<string> {
  return new Set(Object.keys(revealed).filter((key) => JSON.stringify(masked[key]) !== JSON.stringify(revealed[key])));
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
