"use client";

import { useMemo, useState, type ReactNode } from "react";
import { useCan, useConsoleSession } from "@/components/console/providers";
import { BulkBar } from "@/components/bulk/bulk-bar";
import { useDisplayZone } from "@/components/format/time-zone";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { lazyComponent } from "@/components/ui/lazy-component";
import { ConsoleApiError } from "@/lib/bank/browser";
import { indexCopyField, type IndexCopyMark } from "@/lib/bank/index-copy-mark";
import { isConsoleWebhook } from "@/lib/index/console-webhooks";
import { nextPageCursor, useBankList, usePrefetchBankList } from "@/lib/bank/queries";
import { inSentence } from "@/lib/format";
import type { Field } from "@/lib/resources";
import { detailHref, resourceRoutes, type ResourceName } from "@/lib/resources/routes";
import { readSort, sortKindOf, sortParameter, writeSort, type ListSort } from "@/lib/resources/sorting";
import { indexFilterNames, kindsWithAmount, kindsWithError, usesIndexFilters } from "@/lib/search/index-filters";
import type { FilterControl } from "@/lib/resources/filters";
import {
  firstRowNumber,
  hasPreviousPage,
  nextPage,
  pageSizeCookie,
  pageSizeOf,
  pageSizes,
  previousPage,
  searchOf,
  withDefaultPageSize,
  withoutView,
  withQuery,
  type ListState,
} from "@/lib/resources/list-state";
import { MissingViewNotice, OpenedViewChip, SaveViewButton, type OpenedView } from "@/components/views/saved-view-controls";
import { BankOutageBanner } from "./bank-outage-banner";
import { ErrorState } from "./error-state";
import { ExportCsvButton } from "./export-csv-button";
import { ListCount } from "./list-count";
import { KnownNames } from "./name-beside";
import { describeFilters, FilterBar, isPrimaryFilter } from "./filter-bar";
import { indexFilterChips, IndexSourceNotice } from "./index-filter-summary";
import { ColumnMenu } from "./column-menu";
import { SortMenu } from "./sort-menu";
import { useListLayout } from "./use-column-layout";
import { useListState } from "./use-list-state";
import { useRowSelection } from "./use-row-selection";
import { IdValue } from "./id-value";
import { FieldValue } from "./value";

type Row = Record<string, unknown>;
const noRows: Row[] = [];
const withoutKeys = <Value,>(record: Record<string, Value>, keys: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));

export interface ServerError {
  status: number;
  code: string;
  message: string;
}

const noNames: Readonly<Record<string, string>> = {};

// The index's filter form is its own chunk, loaded when "More filters" first shows it: most visits to a list never
// open it, and every list's first-load JavaScript carried it (docs/benchmarks.md, pages).
const IndexFilterBar = lazyComponent(() => import("./index-filter-bar").then((module) => module.IndexFilterBar), {
  fallback: <p className="mb-3 text-xs text-muted">Loading the index&apos;s filters…</p>,
});

// Shown only once the live stream reports a change to this list's resource: loaded after the page has hydrated.
const LiveChangesBar = lazyComponent(() => import("@/components/live/live-changes-bar").then((module) => module.LiveChangesBar), { ssr: false });

// Offered only once every row of an index-served page is selected: loaded then.
const SelectMatching = lazyComponent(() => import("./select-matching").then((module) => module.SelectMatching));

const button =
  "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-40";

/**
 * The one list of every bank resource, driven by its definition (lib/resources). The first page arrives rendered and
 * hydrated from the server; paging and filtering fetch `/api/bank/...` with the bank's own parameters from the URL.
 */
export function ResourceList({
  resource,
  columns: fields,
  filters,
  serverError,
  openedView,
  defaultPageSize,
  names = noNames,
  actions,
}: {
  resource: ResourceName;
  /** Its definition's columns, from the server: the browser's shared code holds only every resource's routes. */
  columns: Field[];
  filters: FilterControl[];
  serverError?: ServerError;
  /** The saved view named by the URL's `view=` as the server found it; null when it is gone or not shared with the user. */
  openedView?: OpenedView | null;
  /** The page size when the URL names none: the one this person last chose on this list, else 50 (the server read it). */
  defaultPageSize: number;
  /** Names beside the first page's ids, looked up by the server with its rows (components/bank/name-beside.tsx). */
  names?: Readonly<Record<string, string>>;
  /** Above the filters: the list page's own offer (a create form), rendered by its server page. */
  actions?: ReactNode;
}) {
  const { title } = resourceRoutes[resource];
  const { environment, userId } = useConsoleSession();
  const { zone } = useDisplayZone();
  const canReveal = useCan("pii:reveal");
  const [urlState, pushUrlState] = useListState();
  const prefetch = usePrefetchBankList(environment, resource);
  // The next rows are asked for at the input itself: the list's query would only start once the URL change's
  // re-render has committed (65-80 ms later in a profile of a filter change).
  const navigate = (next: ListState) => {
    prefetch(withDefaultPageSize(next, defaultPageSize).query);
    pushUrlState(next);
  };
  // What is asked of the bank: the URL's parameters, with the default page size when the URL names none. Filters
  // change the URL's own state; paging carries the page size, since a cursor belongs to it.
  const state = withDefaultPageSize(urlState, defaultPageSize);
  const [initialSearch] = useState(() => searchOf(state));
  const [retried, setRetried] = useState(false);
  const showServerError = Boolean(serverError) && !retried && searchOf(state) === initialSearch;

  // A filter the bank cannot express makes the list the index's answer; with the bank's filters only, it stays the bank's.
  const fromIndex = usesIndexFilters(state.query);
  const query = useBankList<Row>(environment, resource, state.query, { enabled: !showServerError });
  // In a saved view its columns apply; a change there stays on this page until saved as a view.
  const inView = state.view && openedView?.id === state.view ? openedView : undefined;
  const { layout, setLayout, reset: resetLayout } = useListLayout(userId, resource, fields, inView);
  const leaveView = () => {
    resetLayout();
    navigate(withoutView(urlState));
  };
  // The list's filters and sort without paging: what "select all matching" and the count ask the index for.
  const matching = withoutKeys(state.query, ["page_cursor", "page_size"]);
  const filtersOnly = withoutKeys(matching, [sortParameter]);
  const sort = readSort(matching[sortParameter]);
  const selection = useRowSelection(JSON.stringify(filtersOnly));
  const sortBy = (next: ListSort | null) => navigate(withQuery(urlState, { [sortParameter]: next ? writeSort(next) : undefined }));

  const columns = useMemo<DataColumn<Row>[]>(
    () =>
      fields.map((field) => ({
        id: field.key,
        header: field.label,
        align: field.format === "money" ? "right" : "left",
        cell: (row: Row) =>
          field.key === "id" ? (
            <IdValue id={String(row.id)} href={detailHref(resource, String(row.id))} />
          ) : (
            <FieldValue field={field} object={row} compact />
          ),
      })),
    [fields, resource],
  );

  const error = showServerError ? new ConsoleApiError(serverError!.status, serverError!.code, serverError!.message, null) : query.error;
  const bankRows = query.data?.data ?? noRows;
  // The console's own webhooks have a section of their own on the webhooks page (components/webhooks/console-
  // subscriptions.tsx): the bank lists them with its customer's, and has no filter to leave them out, so this page does.
  const rows = useMemo(() => (resource === "webhook" ? bankRows.filter((row) => !isConsoleWebhook(row, null)) : bankRows), [resource, bankRows]);
  const keptApart = bankRows.length - rows.length;
  const outage = (query.data as { [indexCopyField]?: IndexCopyMark } | undefined)?.[indexCopyField];
  const first = firstRowNumber(state);
  const next = nextPageCursor(query.data);
  const active = describeFilters(filters, state.query);
  const chips = indexFilterChips(state.query, zone);
  const hasFilters = filters.some((filter) => state.query[filter.name]) || chips.length > 0;
  const statuses = filters.find((filter) => filter.name === "status" && filter.kind === "select");
  // Secondary filters (ids, text, the index's) in use: counted on "More filters", and shown at once on arrival.
  const moreInUse = filters.filter((filter) => !isPrimaryFilter(filter) && state.query[filter.name]).length + chips.length;
  const [showMore, setShowMore] = useState(() => filters.some((filter) => !isPrimaryFilter(filter) && urlState.query[filter.name]));
  const clearAll = Object.fromEntries(
    [...filters.map((filter) => filter.name), ...indexFilterNames.filter((name) => name !== sortParameter)].map((name) => [name, undefined]),
  );
  const sortKinds = Object.fromEntries(fields.map((field) => [field.key, sortKindOf(field)]));
  const pageSelected = rows.length > 0 && rows.every((row) => selection.selected[String(row.id)]);

  return (
    <section aria-label={title}>
      {actions}
      <FilterBar
        filters={filters}
        query={state.query}
        onApply={(values) => navigate(withQuery(urlState, values))}
        expanded={showMore}
        onToggle={() => {
          IndexFilterBar.preload();
          setShowMore((shown) => !shown);
        }}
        moreInUse={moreInUse}
      />
      {state.view && openedView === null ? <MissingViewNotice onLeave={leaveView} /> : null}
      {showMore || filters.length === 0 ? (
        <IndexFilterBar
          resource={resource}
          query={state.query}
          statuses={statuses?.kind === "select" ? statuses.options : []}
          hasAmount={kindsWithAmount.includes(resource)}
          hasError={kindsWithError.includes(resource)}
          onApply={(values) => navigate(withQuery(urlState, values))}
        />
      ) : null}
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-xs">
        {/* On a phone the count has its own line from the start: arriving after the rows, it must not push them down. */}
        <div className="flex min-h-6 w-full flex-wrap items-center gap-2 md:w-auto">
          <ListCount resource={resource} query={filtersOnly} filtered={hasFilters || Boolean(state.query.from_date || state.query.to_date)} />
          {inView ? <OpenedViewChip view={inView} onLeave={leaveView} /> : null}
          {hasFilters ? (
            <button type="button" className={button} onClick={() => navigate(withQuery(urlState, clearAll))}>
              Clear filters
            </button>
          ) : null}
          {chips.map((chip) => (
            <button
              key={chip.label}
              type="button"
              data-testid="filter-chip"
              aria-label={`Remove filter: ${chip.label}`}
              className="rounded-full border border-line bg-surface-2 px-2 py-0.5 text-xs hover:border-line-strong"
              onClick={() => navigate(withQuery(urlState, Object.fromEntries(chip.names.map((name) => [name, undefined]))))}
            >
              {chip.label} ×
            </button>
          ))}
          {query.isFetching && !query.isPending ? <span className="text-muted">Updating…</span> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ExportCsvButton resource={resource} query={urlState.query} canReveal={canReveal} />
          <ColumnMenu columns={fields} layout={layout} onChange={setLayout} onReset={resetLayout} />
          <SaveViewButton resource={resource} query={urlState.query} layout={layout} />
        </div>
      </div>
      <LiveChangesBar environment={environment} resource={resource} />
      {/* While the bank is not answering, the page is the console's index copy (docs/bank-outage.md). */}
      {outage ? <BankOutageBanner mark={outage} list /> : null}
      {fromIndex && query.data?.index ? (
        <IndexSourceNotice lastChange={query.data.index.lastChange} complete={query.data.index.complete} now={Date.parse(query.data.index.asOf)} />
      ) : null}
      <div className="mb-2 flex flex-wrap items-center gap-2 empty:hidden">
        <BulkBar resource={resource} ids={selection.ids} onClear={selection.clear} />
        {fromIndex && pageSelected ? (
          <SelectMatching
            resource={resource}
            filters={matching}
            selectedCount={selection.ids.length}
            onSelect={(ids) => selection.onChange(Object.fromEntries(ids.map((id) => [id, true])))}
          />
        ) : null}
      </div>
      {error ? (
        <ErrorState
          error={error}
          subject={inSentence(title)}
          onRetry={() => {
            setRetried(true);
            void query.refetch();
          }}
        />
      ) : (
        <KnownNames.Provider value={names}>
          <DataTable
            caption={`${title}${active ? ` where ${active}` : ""}`}
            columns={columns}
            rows={rows}
            rowId={(row) => String(row.id)}
            rowHref={(row) => detailHref(resource, String(row.id))}
            layout={layout}
            onWidthChange={(column, width) => {
              const widths = withoutKeys(layout.widths, [column]);
              setLayout({ ...layout, widths: width ? { ...widths, [column]: width } : widths });
            }}
            selection={selection}
            sortedBy={sort}
            headerMenu={(column) => {
              const kind = sortKinds[column.id];
              return kind ? <SortMenu label={column.header} column={column.id} kind={kind} sort={sort} onSort={sortBy} /> : null;
            }}
            firstRowNumber={first}
            loadingRows={query.isPending ? Math.min(pageSizeOf(state), 12) : 0}
            stale={query.isPlaceholderData}
            pageKey={searchOf(state)}
            empty={
              <span data-testid="empty-state">
                {hasFilters || state.query.from_date || state.query.to_date
                  ? `${keptApart > 0 ? "None of the bank customer's webhooks" : `No ${inSentence(title)}`} match ${[active, ...chips.map((chip) => chip.label)].filter(Boolean).join(", ") || "these filters"}${keptApart > 0 ? "; only the console's own, in their own section" : ""}.`
                  : keptApart > 0
                    ? "Only the console's own subscriptions on this page: they are in their own section."
                    : state.query.page_cursor
                      ? "No more rows after this page."
                      : `No ${inSentence(title)} yet.`}
              </span>
            }
          />
        </KnownNames.Provider>
      )}
      <nav aria-label="Pages" className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
        <span data-testid="row-range" className="tabular-nums">
          {/* The bank's positions: a row kept apart still takes its place in the bank's page. */}
          {bankRows.length > 0 ? `Rows ${first.toLocaleString("en-US")}–${(first + bankRows.length - 1).toLocaleString("en-US")}` : "No rows"}
        </span>
        {keptApart > 0 ? (
          <span data-testid="kept-apart">
            {keptApart} of them {keptApart === 1 ? "is" : "are"} the console&apos;s own, shown in their own section
          </span>
        ) : null}
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1">
            Rows per page
            <select
              className="rounded border border-line bg-surface px-1 py-0.5 text-xs text-fg"
              value={pageSizeOf(state)}
              onChange={(event) => {
                // Remembered for this list: the default next time its URL names no page size.
                document.cookie = `${pageSizeCookie(resource)}=${event.target.value}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
                navigate(withQuery(state, { page_size: event.target.value }));
              }}
            >
              {(pageSizes as readonly number[]).includes(pageSizeOf(state)) ? null : <option value={pageSizeOf(state)}>{pageSizeOf(state)}</option>}
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={button} disabled={!hasPreviousPage(state)} onClick={() => navigate(previousPage(state))}>
            ← Previous
          </button>
          <button
            type="button"
            className={button}
            disabled={!next || query.isPlaceholderData}
            // The next page is read on the way to the button, so the click usually finds it in the cache.
            onPointerEnter={() => next && prefetch(nextPage(state, next).query)}
            onFocus={() => next && prefetch(nextPage(state, next).query)}
            onClick={() => next && navigate(nextPage(state, next))}
          >
            Next →
          </button>
        </div>
      </nav>
    </section>
  );
}
