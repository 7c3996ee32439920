"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { useCan, useConsoleSession } from "@/components/console/providers";
import { useRefreshOnChange } from "@/components/live/use-refresh-on-change";
import { ConsoleApiError } from "@/lib/bank/browser";
import { splitIndexCopy } from "@/lib/bank/index-copy-mark";
import { useBankObject } from "@/lib/bank/queries";
import { inSentence, valueAt, writeOnlyFields } from "@/lib/format";
import type { DetailDefinition, DetailSection, Field } from "@/lib/resources";
import { listHref } from "@/lib/resources/routes";
import { BeneficialOwners } from "./beneficial-owners";
import type { DetailContext } from "./detail-extra-props";
import { detailExtras } from "./detail-extras";
import { BankOutageBanner } from "./bank-outage-banner";
import { ErrorState } from "./error-state";
import { RevealControl, type Revealed } from "./reveal-control";
import type { ServerError } from "./resource-list";
import { StatusBadge } from "./status-badge";
import { IdValue } from "./id-value";
import { FieldValue, JsonBlock } from "./value";

type BankObject = Record<string, unknown>;
/** Fields the signed-in user just wrote, with the `updated_at` of the bank's answer that holds them. */
type Written = { fields: BankObject; updatedAt: string };

/**
 * The one detail layout of every bank resource: its definition's sections, labelled in plain words, links to related
 * objects and lists, and the exact object under "Raw JSON". Personal data stays masked unless a role that may reveal
 * it asks (audited); a revealed value is marked and lives only as long as this page.
 */
export function ResourceDetail({
  definition,
  id,
  serverError,
  context = {},
}: {
  /** What the page draws of its resource's definition, from the server: the browser's shared code holds only routes. */
  definition: DetailDefinition;
  id: string;
  serverError?: ServerError;
  /** What the server tells this resource's actions (e.g. the bank's URL for a card token proof); never credentials. */
  context?: DetailContext;
}) {
  const resource = definition.name;
  const { Actions, Panel } = detailExtras[resource] ?? {};
  const { environment } = useConsoleSession();
  const canReveal = useCan("pii:reveal");
  const [tab, setTab] = useState<"fields" | "raw">("fields");
  const [retried, setRetried] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [written, setWritten] = useState<Written | null>(null);
  // The object itself refetches on its own (the live provider marks its detail stale); this redraws its server-read timeline.
  useRefreshOnChange((change) => change.resource === resource && change.id === id);
  const query = useBankObject(environment, resource, id, { enabled: !serverError || retried });

  // While the bank is not answering, the object is the console's index copy, marked (docs/bank-outage.md).
  const copy = useMemo(() => (query.data ? splitIndexCopy(query.data) : undefined), [query.data]);

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
  const { answer: masked, mark: outage } = copy ?? { answer: undefined, mark: undefined };
  if (!masked) return <p className="text-sm text-muted">Loading {inSentence(definition.singular)}…</p>;
  // What this user just saved shows in place of its mask while the bank still holds that version of the object.
  // (ISO times compare as text; an older copy still refetching counts too, a newer one means someone changed it since.)
  const own = written && String(masked.updated_at) <= written.updatedAt ? written.fields : null;
  const object = revealed?.object ?? (own ? { ...masked, ...own } : masked);
  const revealedKeys = revealed ? changedKeys(masked, revealed.object) : new Set<string>();
  const ownKeys = !revealed && own ? new Set(Object.keys(own)) : new Set<string>();
  const status = typeof object.status === "string" ? object.status : null;

  return (
    <article aria-labelledby="detail-title" data-testid="resource-detail" data-id={id}>
      {outage ? <BankOutageBanner mark={outage} /> : null}
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-medium tracking-wide text-muted uppercase">
            <Link href={definition.route} className="hover:underline">
              {definition.title}
            </Link>
          </p>
          <h1 id="detail-title" elementtiming="detail-title" className="mt-0.5 flex flex-wrap items-center gap-2 text-xl font-semibold">
            {definition.singular}
            {definition.headline ? (
              <span className="font-normal text-muted">{<FieldValue field={definition.headline} object={object} />}</span>
            ) : null}
            {status ? <StatusBadge status={status} /> : null}
          </h1>
          <p className="mt-1 break-all">
            <IdValue id={id} full />
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {revealed || hasMaskedValues(masked) ? (
            <RevealControl resource={resource} id={id} canReveal={canReveal} revealed={revealed} onChange={setRevealed} />
          ) : null}
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
        <div role="tabpanel" id="panel-fields" aria-labelledby="tab-fields" className="grid gap-3 lg:grid-cols-2 [&>*]:min-w-0">
          {definition.sections.map((section) => [
            <section key={section.title} aria-labelledby={`section-${slug(section.title)}`} className="rounded-md border border-line bg-surface p-3">
              <h2 id={`section-${slug(section.title)}`} className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
                {section.title}
              </h2>
              <dl className={fieldGrid}>
                {section.fields.map((field) => (
                  <FieldRow
                    key={field.key}
                    field={field}
                    object={object}
                    revealed={revealedKeys.has(field.key.split(".")[0]!)}
                    own={ownKeys.has(field.key.split(".")[0]!)}
                  />
                ))}
              </dl>
            </section>,
            ...(definition.panels ?? [])
              .filter((panel) => panel.after === section.title)
              .map((panel) => <BeneficialOwners key={panel.kind} owners={valueAt(object, "person_applications")} />),
          ])}
          <UnlistedFields sections={definition.sections} object={object} />
          {definition.relatedLists?.length ? (
            <section aria-labelledby="section-related" className="rounded-md border border-line bg-surface p-3">
              <h2 id="section-related" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
                Related
              </h2>
              <ul className="space-y-1 text-sm">
                {definition.relatedLists.map((related) => (
                  <li key={related.label}>
                    <Link href={listHref(related.list, { [related.filter]: String(valueAt(object, related.from ?? "id")) })} className="link">
                      {related.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      )}
      {Panel ? <Panel id={id} object={masked} context={context} onWritten={(fields, updatedAt) => setWritten({ fields, updatedAt })} /> : null}
    </article>
  );
}

function FieldRow({ field, object, revealed, own = false }: { field: Field; object: BankObject; revealed: boolean; own?: boolean }) {
  return (
    <>
      <dt className="text-muted">{field.label}</dt>
      <dd
        className={`min-w-0 break-words ${revealed ? "rounded bg-amber-100 px-1 ring-1 ring-amber-500 dark:bg-amber-950" : ""}`}
        data-field={field.key}
      >
        <FieldValue field={field} object={object} />
        {revealed ? <span className="ml-2 text-[11px] font-semibold text-amber-900 uppercase dark:text-amber-300">revealed</span> : null}
        {own ? (
          <span data-testid="own-write" className="mt-0.5 block text-[11px] text-muted">
            as you saved it; masked again for everyone else, and for you after a reload or the next change
          </span>
        ) : null}
      </dd>
    </>
  );
}

/** Fields the bank sent that the definition does not place (a newer API): still shown, so nothing is hidden by omission. */
function UnlistedFields({ sections, object }: { sections: DetailSection[]; object: BankObject }) {
  const placed = new Set(
    sections.flatMap((section) =>
      section.fields.flatMap((field) => {
        const top = field.key.split(".")[0]!;
        // An expiry row shows its `_year` sibling too.
        return field.format === "expiry" ? [top, top.replace(/_month$/, "_year")] : [top];
      }),
    ),
  );
  placed.add("person_applications");
  // A write-only field (a webhook's basic_secret) is never a row: the bank answers it as null, and it is nobody's to read.
  const extra = Object.keys(object).filter((key) => !placed.has(key) && !writeOnlyFields.has(key));
  if (extra.length === 0) return null;
  return (
    <section aria-labelledby="section-other" className="rounded-md border border-line bg-surface p-3">
      <h2 id="section-other" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Other fields
      </h2>
      <dl className={fieldGrid}>
        {extra.map((key) => (
          <FieldRow
            key={key}
            field={{ key, label: key, format: typeof object[key] === "object" && object[key] !== null ? "json" : "mono" }}
            object={object}
            revealed={false}
          />
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

/** Label beside value from 640 px; on a phone the label stands above its value, so neither is squeezed. */
const fieldGrid =
  "grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[minmax(8rem,auto)_minmax(0,1fr)] sm:gap-y-1.5 max-sm:[&>dd]:mb-1.5 max-sm:[&>dt]:text-xs";

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
