"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useCan, useConsoleSession } from "@/components/console/providers";
import { LiveChangesBar } from "@/components/live/live-changes-bar";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { bankApiPath, ConsoleApiError, fetchConsole, type BankPage } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { inSentence } from "@/lib/format";
import { detailHref, resources, type ResourceName } from "@/lib/resources";
import type { FilterControl } from "@/lib/resources/filters";
import {
  cursorOf, firstRowNumber, hasPreviousPage, nextPage, pageSizeOf, pageSizes, previousPage, searchOf, withQuery,
} from "@/lib/resources/list-state";
import { ErrorState } from "./error-state";
import { ExportCsvButton } from "./export-csv-button";
import { listExtras } from "./list-extras";
import { describeFilters, FilterBar } from "./filter-bar";
import { useColumnVisibility } from "./use-column-visibility";
import { useListState } from "./use-list-state";
import { FieldValue, IdValue } from "./value";

type Row = Record<string, unknown>;

export interface ServerError {
  status: number;
  code: string;
  message: string;
}

const button = "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-40";

/**
 * The one list of every bank resource, driven by its definition (lib/resources). The first page arrives rendered and
 * hydrated from the server; paging and filtering fetch `/api/bank/...` with the bank's own parameters from the URL.
 */
export function ResourceList({ resource, filters, serverError }: { resource: ResourceName; filters: FilterControl[]; serverError?: ServerError }) {
  const definition = resources[resource];
  const ListActions = listExtras[resource];
  const { environment, userId } = useConsoleSession();
  const canReveal = useCan("pii:reveal");
  const [state, navigate] = useListState();
  const [initialSearch] = useState(() => searchOf(state));
  const [retried, setRetried] = useState(false);
  const showServerError = Boolean(serverError) && !retried && searchOf(state) === initialSearch;

  const query = useQuery({
    queryKey: bankKeys.list(environment, resource, state.query),
    queryFn: () => fetchConsole<BankPage<Row>>(bankApiPath(definition.apiPath, state.query)),
    placeholderData: keepPreviousData,
    enabled: !showServerError,
  });
  const [visibility, setColumn] = useColumnVisibility(userId, resource, definition.columns);

  const columns = useMemo<DataColumn<Row>[]>(
    () =>
      definition.columns.map((field) => ({
        id: field.key,
        header: field.label,
        align: field.format === "money" ? "right" : "left",
        cell: (row: Row) =>
          field.key === "id" ? <IdValue id={String(row.id)} href={detailHref(resource, String(row.id))} /> : <FieldValue field={field} object={row} compact />,
      })),
    [definition, resource],
  );

  const error = showServerError ? new ConsoleApiError(serverError!.status, serverError!.code, serverError!.message, null) : query.error;
  const rows = query.data?.data ?? [];
  const first = firstRowNumber(state);
  const next = cursorOf(query.data?.page_next);
  const active = describeFilters(filters, state.query);
  const hasFilters = filters.some((filter) => state.query[filter.name]);

  return (
    <section aria-label={definition.title}>
      {ListActions ? <ListActions /> : null}
      <FilterBar filters={filters} query={state.query} onApply={(values) => navigate(withQuery(state, values))} />
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-xs">
        <div className="flex items-center gap-2">
          {hasFilters ? (
            <button type="button" className={button} onClick={() => navigate(withQuery(state, Object.fromEntries(filters.map((filter) => [filter.name, undefined]))))}>
              Clear filters
            </button>
          ) : null}
          {query.isFetching && !query.isPending ? <span className="text-muted">Updating…</span> : null}
        </div>
        <div className="flex items-center gap-2">
          <ExportCsvButton resource={resource} query={state.query} canReveal={canReveal} />
          <ColumnMenu columns={definition.columns} visibility={visibility} onChange={setColumn} />
        </div>
      </div>
      <LiveChangesBar environment={environment} resource={resource} />
      {error ? (
        <ErrorState
          error={error}
          subject={inSentence(definition.title)}
          onRetry={() => {
            setRetried(true);
            void query.refetch();
          }}
        />
      ) : (
        <DataTable
          caption={`${definition.title}${active ? ` where ${active}` : ""}`}
          columns={columns}
          rows={rows}
          rowId={(row) => String(row.id)}
          rowHref={(row) => detailHref(resource, String(row.id))}
          columnVisibility={visibility}
          firstRowNumber={first}
          loadingRows={query.isPending ? Math.min(pageSizeOf(state), 12) : 0}
          empty={
            <span data-testid="empty-state">
              {hasFilters || state.query.from_date || state.query.to_date
                ? `No ${inSentence(definition.title)} match ${active || "these filters"}.`
                : state.query.page_cursor
                  ? "No more rows after this page."
                  : `No ${inSentence(definition.title)} yet.`}
            </span>
          }
        />
      )}
      <nav aria-label="Pages" className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
        <span data-testid="row-range" className="tabular-nums">
          {rows.length > 0 ? `Rows ${first.toLocaleString("en-US")}–${(first + rows.length - 1).toLocaleString("en-US")}` : "No rows"}
        </span>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1">
            Rows per page
            <select
              className="rounded border border-line bg-surface px-1 py-0.5 text-xs text-fg"
              value={pageSizeOf(state)}
              onChange={(event) => navigate(withQuery(state, { page_size: event.target.value }))}
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
          <button type="button" className={button} disabled={!next || query.isPlaceholderData} onClick={() => next && navigate(nextPage(state, next))}>
            Next →
          </button>
        </div>
      </nav>
    </section>
  );
}

function ColumnMenu({ columns, visibility, onChange }: { columns: { key: string; label: string }[]; visibility: Record<string, boolean>; onChange(column: string, visible: boolean): void }) {
  return (
    <details className="relative">
      <summary className={`${button} cursor-pointer list-none`}>Columns</summary>
      <fieldset className="absolute right-0 z-10 mt-1 w-52 rounded-md border border-line bg-surface p-2 shadow-lg">
        <legend className="sr-only">Visible columns</legend>
        {columns
          .filter((column) => column.key !== "id")
          .map((column) => (
            <label key={column.key} className="flex items-center gap-2 py-0.5 text-xs">
              <input type="checkbox" checked={visibility[column.key] !== false} onChange={(event) => onChange(column.key, event.target.checked)} />
              {column.label}
            </label>
          ))}
      </fieldset>
    </details>
  );
}
