import { and, eq, inArray, sql } from "drizzle-orm";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { searchDocument } from "./document";
import type { ConsoleDb } from "@/lib/db/console-db";

/** A transaction or the database: the index writes documents in the transaction that writes their objects. */
type Writer = Pick<ConsoleDb, "insert" | "delete">;

/**
 * Keeps the search documents of these objects equal to their latest state: written for an object that has one,
 * removed for one the bank deleted (state null). Called by `recordObservations` with the objects it changed.
 */
export async function writeSearchDocuments(
  db: Writer,
  environment: Environment,
  objects: { id: string; resource: string; state?: unknown }[],
): Promise<void> {
  const present = objects.filter((object) => object.state !== null && typeof object.state === "object");
  const gone = objects.filter((object) => object.state === null || object.state === undefined).map((object) => object.id);
  if (gone.length > 0)
    await db.delete(schema.bankSearch).where(and(eq(schema.bankSearch.environment, environment), inArray(schema.bankSearch.id, gone)));
  if (present.length === 0) return;
  const rows = present.map((object) => ({
    environment,
    id: object.id,
    resource: object.resource,
    ...searchDocument(object.resource as ListedResource, object.state as Record<string, unknown>),
  }));
  await db
    .insert(schema.bankSearch)
    .values(rows)
    .onConflictDoUpdate({
      target: [schema.bankSearch.environment, schema.bankSearch.id],
      set: {
        resource: sql`excluded.resource`,
        publicText: sql`excluded.public_text`,
        userdataText: sql`excluded.userdata_text`,
        personalText: sql`excluded.personal_text`,
        amountCents: sql`excluded.amount_cents`,
      },
    });
}

/**
 * Writes the documents of every indexed object that has none (objects indexed before the search existed), a batch at
 * a time. Run at start by the index (lib/index/runtime.ts); returns how many it wrote.
 */
export async function fillMissingSearchDocuments(db: ConsoleDb, batch = 500): Promise<number> {
  let written = 0;
  for (;;) {
    const missing = await db.execute<{ environment: Environment; id: string; resource: string; state: unknown }>(sql`
      SELECT o.environment, o.id, o.resource, o.state FROM ${schema.bankObjects} o
      WHERE o.state IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM ${schema.bankSearch} s WHERE s.environment = o.environment AND s.id = o.id)
      LIMIT ${batch}`);
    if (missing.rows.length === 0) return written;
    for (const environment of ["sandbox", "production"] as const) {
      const rows = missing.rows.filter((row) => row.environment === environment);
      if (rows.length > 0) await writeSearchDocuments(db, environment, rows);
    }
    written += missing.rows.length;
  }
}
