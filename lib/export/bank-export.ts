import { z } from "zod";
import { bankNotConfigured, forbidden } from "@/lib/api/errors";
import type { ApiCall, RouteDefinition, RouteResolver } from "@/lib/api/route";
import type { BankClient, ListOperationId, Page } from "@/lib/bank/client";
import { listedResources, listQueries, pageSizeMax, paginationQuery, type ListedResource } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import { csvResponse } from "@/lib/csv/csv-stream";
import { maskForViewer } from "@/lib/pii";
import { can } from "@/lib/permissions";
import { auditedCsvExport, type Audited } from "./audited-csv";

/** What the export needs from the rest of the console; the route file wires the real ones. */
export interface BankExportDependencies {
  activeEnvironment(): Promise<Environment>;
  /** A client for the environment's bank, or null when that environment has no connection configured. */
  bankClient(environment: Environment): Promise<BankClient | null>;
  audited: Audited;
}

type Row = Record<string, unknown>;
type ExportCall = ApiCall<unknown, Record<string, unknown>, unknown>;

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
  });
}

/** Every row of the list, first page read up front: a bank failing there is an ordinary error answer, not a cut file. */
async function openList(bank: BankClient, resource: ListedResource, query: Record<string, unknown>, revealed: boolean) {
  const pages = bank.pages(`list_${resource}` as ListOperationId, query as never) as AsyncGenerator<Page<Row>>;
  const first = await pages.next();
  const shown = (row: Row) => (revealed ? row : maskForViewer(resource, row));
  return (async function* rows() {
    if (first.done) return;
    yield* first.value.data.map(shown);
    for await (const page of pages) yield* page.data.map(shown);
  })();
}

function compile(resource: ListedResource, dependencies: BankExportDependencies): RouteDefinition {
  // The header: the object's top-level fields in contract order; fields the bank adds later are not exported.
  const columns = Object.keys(listedResources[resource].schema.shape);

  async function handle(call: ExportCall): Promise<Response> {
    // POST asks for personal data unmasked; same-origin is already enforced by the wrapper for it.
    const revealed = call.request.method === "POST";
    if (revealed && !can(call.user.role, "pii:reveal")) throw forbidden("Your role may not export unmasked personal data.");
    const environment = await dependencies.activeEnvironment();
    const bank = await dependencies.bankClient(environment);
    if (!bank) throw bankNotConfigured(environment);
    // page_size is how the list is read, not which rows it holds: not one of the filters recorded.
    const filters = Object.fromEntries(Object.entries(call.query).filter(([name]) => name !== "page_size"));
    const body = await auditedCsvExport(dependencies.audited, {
      entry: {
        actor: { id: call.user.id, email: call.user.email, role: call.user.role },
        environment,
        action: `${resource}.export`,
        targetId: null,
        before: { filters, revealed },
        requestId: call.requestId,
      },
      columns,
      open: () => openList(bank, resource, call.query, revealed),
      log: call.log,
    });
    return csvResponse(body, resource);
  }

  const route: RouteDefinition<unknown, Record<string, unknown>, unknown> = { permission: "bank:read", query: exportQuery(resource), handle };
  return route as RouteDefinition;
}

/**
 * `GET /api/export/<resource>?<filters>`: every row of a bank list as CSV, personal data masked;
 * `POST` with the same query: unmasked, for roles holding `pii:reveal`. Each export is one audit record
 * (`<resource>.export`, its filters and whether it was unmasked, then its row count or why it failed).
 * Any other resource is a 404.
 */
export function bankExportResolver(dependencies: BankExportDependencies): RouteResolver {
  const routes = new Map(Object.keys(listedResources).map((resource) => [resource, compile(resource as ListedResource, dependencies)]));
  return ({ method, params }) => {
    const route = typeof params.resource === "string" ? routes.get(params.resource) : undefined;
    return route && (method === "GET" || method === "POST") ? { route, params: {} } : undefined;
  };
}
