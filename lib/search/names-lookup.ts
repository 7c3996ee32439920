import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { maskForViewer, type MaskedResource } from "@/lib/pii";
import { nameOf } from "./names";
import type { ConsoleDb } from "@/lib/db/console-db";

export const maxNamesPerLookup = 100;

/**
 * The names of these objects from the console's index (a counterparty's name, a cardholder…), read from each one's
 * state as every role sees it (masked), for showing beside ids. Ids the index does not hold, or without a name, are
 * left out.
 */
export async function namesOf(db: ConsoleDb, environment: Environment, ids: string[]): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const rows = await db
    .select({ id: schema.bankObjects.id, resource: schema.bankObjects.resource, state: schema.bankObjects.state })
    .from(schema.bankObjects)
    .where(and(eq(schema.bankObjects.environment, environment), inArray(schema.bankObjects.id, ids), isNotNull(schema.bankObjects.state)));
  const names: Record<string, string> = {};
  for (const row of rows) {
    const name = nameOf(row.resource as ListedResource, maskForViewer(row.resource as MaskedResource, row.state as Record<string, unknown>));
    if (name) names[row.id] = name;
  }
  return names;
}
