import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type pg from "pg";

/**
 * Inserts rows with one statement per batch whatever its size: each column travels as one array parameter and
 * `unnest` turns the arrays back into rows. 17 parameters instead of 17 per row, so a batch of thousands of rows is
 * one round trip, and PostgreSQL and PGlite both parse it quickly. Column types come from the drizzle table, so this
 * serves every resource table.
 */
export async function insertRows(client: pg.ClientBase, table: PgTable, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const config = getTableConfig(table);
  // Drizzle keys are the API field names, which are also the column names in the resource tables.
  const columns = config.columns.filter((column) => rows.some((row) => row[column.name] !== undefined));
  const arrays = columns.map((column) => {
    const json = column.getSQLType() === "jsonb";
    return rows.map((row) => toParameter(row[column.name], json));
  });
  const target = `${quote(config.schema ?? "public")}.${quote(config.name)}`;
  const names = columns.map((column) => quote(column.name)).join(", ");
  const unnest = columns.map((column, index) => `$${index + 1}::${column.getSQLType()}[]`).join(", ");
  await client.query(`INSERT INTO ${target} (${names}) SELECT * FROM unnest(${unnest})`, arrays);
}

function toParameter(value: unknown, json: boolean): string | boolean | null {
  if (value === null || value === undefined) return null;
  if (json) return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value;
  return String(value);
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
