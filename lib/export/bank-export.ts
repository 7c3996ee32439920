import { z } from "zod";
import { revealBody } from "@/lib/api/bank-proxy";
import { badInput, bankNotConfigured, forbidden } from "@/lib/api/errors";
import { describeIssues } from "@/lib/bank/client";
import type { ApiCall, RouteDefinition, RouteResolver } from "@/lib/api/route";
import type { BankClient } from "@/lib/bank/client";
import { listedResources, listQueries, pageSizeMax, paginationQuery, type ListedResource } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import { csvResponse } from "@/lib/csv/csv-stream";
import { maskForViewer } from "@/lib/pii";
import { can } from "@/lib/permissions";
import type { ConsoleDb } from "@/lib/db/console-db";
import { indexFilterNames, usesIndexFilters } from "@/lib/search/index-filters";
import { guardMaskedFilters } from "@/lib/search/masked-filters";
import { listFromIndex } from "@/lib/search/index-list";
import { parseIndexListQuery } from "@/lib/search/index-list-input";
import { onlyFromTheBank } from "@/lib/api/index-fallback";
import { resources } from "@/lib/resources";
import { explainFailure } from "@/lib/contract/reason-codes";
import { derivedColumns, withDerivedValues } from "@/lib/resources/derived";
import { shownInList } from "@/lib/index/console-webhooks";
import { auditedCsvExport, type Audited } from "./audited-csv";

/** What the export needs from the rest of the console; the route file wires the real ones. */
export interface BankExportDependencies {
  activeEnvironment(): Promise<Environment>;
  /** A client for the environment's bank, or null when that environment has no connection configured. */
  bankClient(environment: Environment): Promise<BankClient | null>;
  audited: Audited;
  /** The console's database, holding the index that serves lists filtered as the bank cannot (docs/search.md). */
  indexDb(): Promise<ConsoleDb>;
  /**
   * The `Retry-After` of an export refused because the bank is not answering, when neither the breaker nor the bank
   * said when to try again (the route gives BANK_BREAKER_HALF_OPEN_SECONDS; default 15).
   */
  outageRetryAfterSeconds?: number;
}

type Row = Record<string, unknown>;
/** Exports are served over HTTP only (no page reads one), so the request is always there. */
type ExportCall = ApiCall<unknown, Record<string, unknown>, unknown> & { request: Request };

/**
 * The export's query: the resource's list query from the contract (its filters, from_date, to_date), with page_size
 * as the number of rows per bank request (default the bank's maximum, so fewest requests) and page_cursor refused:
 * an export always covers the whole filtered list from its first row, so a cursor would make a partial file that
 * looks complete.
 */
function exportQuery(resource: ListedResource) {
  return listQueries[resource].extend({
    page_cursor: z.never({ error: "an export always covers the whole filtered list from its first row: leave page_cursor out" }).optional(),
    page_size: paginationQuery.page_size.unwrap().default(pageSizeMax).describe(`Rows per bank request, 1 to ${pageSizeMax}`),
    // The index's filters (checked by parseIndexListQuery, which names each problem): such an export reads the index.
    ...Object.fromEntries(indexFilterNames.map((name) => [name, z.string().optional()])),
  });
}

/** Every row of the list, first page read up front: a bank failing there is an ordinary error answer, not a cut file. */
async function openList(bank: BankClient, resource: ListedResource, query: Record<string, unknown>, revealed: boolean) {
  const pages = bank.resources.listPages(resource, query);
  const first = await pages.next();
  const shown = (row: Row) => (revealed ? row : maskForViewer(resource, row));
  return (async function* rows() {
    if (first.done) return;
    yield* first.value.data.map(shown);
    for await (const page of pages) yield* page.data.map(shown);
  })();
}

/**
 * Every row of a list filtered as only the console's index can (amount range, several statuses, presets, has error),
 * read from the index page after page, as the index-served list shows it; a malformed filter is a 400 naming it.
 */
function indexListOpener(
  dependencies: BankExportDependencies,
  environment: Environment,
  resource: ListedResource,
  query: Record<string, unknown>,
  revealed: boolean,
) {
  const params = Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  );
  const parsed = parseIndexListQuery(resource, params);
  if (!parsed.ok) throw badInput(parsed.error);
  return async () => {
    const db = await dependencies.indexDb();
    return (async function* rows() {
      let page = parsed.page;
      for (;;) {
        const answer = await listFromIndex(db, environment, resource, page, { revealed });
        yield* answer.data;
        if (!answer.nextCursor) return;
        const next = parseIndexListQuery(resource, { ...params, page_cursor: answer.nextCursor });
        if (!next.ok) throw new Error(next.error);
        page = next.page;
      }
    })();
  };
}

/** The reason an unmasked export carries as its JSON body, `{"reason": "…"}`; 400 naming `reason` without one. */
async function revealReason(request: Request): Promise<string> {
  let body: unknown;
  try {
    const text = await request.text();
    body = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    throw badInput('Invalid body: expected {"reason": "<why, or a ticket reference>"}');
  }
  const parsed = revealBody.safeParse(body);
  if (!parsed.success) throw badInput(`Invalid body: ${describeIssues(parsed.error, "(body)").join("; ")}`);
  return parsed.data.reason;
}

function compile(resource: ListedResource, dependencies: BankExportDependencies): RouteDefinition {
  // The header: the object's top-level fields in contract order (fields the bank adds later are not exported), then
  // the list's derived columns (`return_code`, `return_reason`), computed from those fields (lib/resources/derived.ts).
  const derived = derivedColumns(resources[resource].columns);
  const columns = [...Object.keys(listedResources[resource].schema.shape), ...derived.map((field) => field.key)];
  // The rows the list on screen shows: not the console's own webhook subscriptions (shownInList).
  const withDerived = (rows: AsyncIterable<Row>) =>
    (async function* derivedRows() {
      for await (const row of rows) if (shownInList(resource, row)) yield withDerivedValues(derived, row, explainFailure);
    })();

  async function bankListOpener(environment: Environment, query: Record<string, unknown>, revealed: boolean) {
    const bank = await dependencies.bankClient(environment);
    if (!bank) throw bankNotConfigured(environment);
    return () => openList(bank, resource, query, revealed);
  }

  async function handle(call: ExportCall): Promise<Response> {
    // POST asks for personal data unmasked; same-origin is already enforced by the wrapper for it.
    const revealed = call.request.method === "POST";
    if (revealed && !can(call.user.role, "pii:reveal")) throw forbidden("Your role may not export unmasked personal data.");
    // An unmasked export is a reveal: it says why, like one (docs/reviews.md).
    const reason = revealed ? await revealReason(call.request) : undefined;
    const environment = await dependencies.activeEnvironment();
    // page_size is how the list is read, not which rows it holds: not one of the filters recorded.
    const filters = Object.fromEntries(Object.entries(call.query).filter(([name, value]) => name !== "page_size" && value !== undefined));
    // A filter on a masked field is a read of it, and a file of one row or none tells a guess is right: refused to a
    // role that sees the field masked, rate-limited for one that sees it (lib/search/masked-filters.ts); audited below.
    await guardMaskedFilters(resource, call.user, filters);
    // A filter the bank cannot express makes the export the index's answer, as the list on screen is.
    const fromIndex = usesIndexFilters(filters as Record<string, string>);
    const open = fromIndex
      ? indexListOpener(dependencies, environment, resource, call.query, revealed)
      : await bankListOpener(environment, call.query, revealed);
    const exported = auditedCsvExport(dependencies.audited, {
      entry: {
        actor: { id: call.user.id, email: call.user.email, role: call.user.role },
        environment,
        action: `${resource}.export`,
        targetId: null,
        before: { filters, revealed, ...(revealed ? { reason } : {}), ...(fromIndex ? { source: "index" } : {}) },
        requestId: call.requestId,
      },
      columns,
      open: async () => withDerived(await open()),
      log: call.log,
    });
    // A bank that does not answer the first page: a clear 503, never a file from the index's copy (docs/bank-outage.md).
    const body = await exported.catch((error: unknown) => {
      throw onlyFromTheBank(error, "an export reads the bank's whole list from the bank itself", dependencies.outageRetryAfterSeconds ?? 15);
    });
    return csvResponse(body, resource);
  }

  const route: RouteDefinition<unknown, Record<string, unknown>, unknown> = {
    permission: "bank:read",
    query: exportQuery(resource),
    handle,
  };
  return route as RouteDefinition;
}

/**
 * `GET /api/export/<resource>?<filters>`: every row of a bank list as CSV, personal data masked;
 * `POST` with the same query and a body `{"reason": "…"}`: unmasked, for roles holding `pii:reveal`. Each export is one
 * audit record (`<resource>.export`, its filters, whether it was unmasked and why, then its row count or why it failed).
 * Any other resource is a 404.
 */
export function bankExportResolver(dependencies: BankExportDependencies): RouteResolver {
  const routes = new Map(Object.keys(listedResources).map((resource) => [resource, compile(resource as ListedResource, dependencies)]));
  return ({ method, params }) => {
    const route = typeof params.resource === "string" ? routes.get(params.resource) : undefined;
    return route && (method === "GET" || method === "POST") ? { route, params: {} } : undefined;
  };
}
