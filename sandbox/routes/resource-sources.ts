import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { listQueries, listedResources, paginationQuery } from "@/lib/contract";
import {
  achTransfers,
  businessApplications,
  cards,
  counterparties,
  depositSweeps,
  digitalWalletTokens,
  fednowPayments,
  networkTransfers,
  personApplications,
} from "../db/resources-schema";
import { resourceFields, rowFormat } from "../http/format";
import type { ListSource } from "../http/pagination";

/** The resources whose list and get routes read a resource table (webhooks have their own routes). */
export const resourceTables = {
  network_transfer: networkTransfers,
  ach: achTransfers,
  fednow: fednowPayments,
  counterparty: counterparties,
  deposit_sweep: depositSweeps,
  person_application: personApplications,
  business_application: businessApplications,
  card: cards,
  digital_wallet_token: digitalWalletTokens,
} as const;
export type TableResource = keyof typeof resourceTables;

/**
 * Query filters whose column is not named like the parameter, or not compared by equality. trace_suffix is the end
 * of the 15-digit trace number: all 15 digits seek the (trace_number, created_at, id) index; fewer are a prefix of
 * the reversed number, which seeks the index on reverse(trace_number) (text_pattern_ops, so LIKE 'prefix%' uses it).
 */
const filterColumns: Record<string, ListSource["filters"][string]> = { trace_suffix: { suffixOf: "trace_number", length: 15 } };

export interface ResourceSource extends ListSource {
  /** The API path of the resource's list: `/ach`. */
  path: string;
}

export function qualifiedName(table: PgTable): string {
  const config = getTableConfig(table);
  return `"${config.schema ?? "public"}"."${config.name}"`;
}

/** Built once per process: table, JSON rendering of a row and filter columns of each resource, from the contract. */
export const resourceSources = Object.fromEntries(
  (Object.keys(resourceTables) as TableResource[]).map((name) => {
    const table = resourceTables[name];
    const filters = Object.keys(listQueries[name].shape)
      .filter((parameter) => !Object.hasOwn(paginationQuery, parameter))
      .map((parameter) => [parameter, filterColumns[parameter] ?? parameter]);
    const source: ResourceSource = {
      path: listedResources[name].path,
      table: qualifiedName(table),
      format: rowFormat(resourceFields(table, listedResources[name].schema)),
      filters: Object.fromEntries(filters),
    };
    return [name, source];
  }),
) as Record<TableResource, ResourceSource>;
