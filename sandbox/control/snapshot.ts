import type { Context, Hono } from "hono";
import { getTableConfig, type PgColumn } from "drizzle-orm/pg-core";
import type pg from "pg";
import { z } from "zod";
import type { SandboxContext } from "@/sandbox/context";
import { badRequest, describeZodError } from "@/sandbox/http/errors";
import { readJsonBody } from "@/sandbox/http/request";
import type { AppEnv } from "@/sandbox/routes/app-env";
import { releaseEveryClaim } from "@/sandbox/webhooks/delivery-store";
import { reloadClock } from "./clock";
import { controlOperations } from "./openapi-paths";
import { dataTables, replaceData, type DataTable } from "./sandbox-data";

export const snapshotFormat = "sandbox-bank-snapshot";
/** Raised when the file's layout changes; a table's columns are checked against the schema on their own. */
export const snapshotVersion = 1;
/** The largest snapshot accepted: a JavaScript string holds at most ~512 MiB, and the file is read whole. */
const maxSnapshotBytes = 256 * 1024 * 1024;
/** Rows per INSERT when restoring: each batch is one message, and PGlite's socket is quadratic in a message's size. */
const restoreBatch = 2_000;

/**
 * How a column travels in the file: as PostgreSQL's JSON of it (timestamps ISO 8601, jsonb as JSON, booleans and
 * small integers as such), except numeric and bigint, which travel as their exact text (a JSON number would go
 * through a double).
 */
function exactText(column: PgColumn): boolean {
  return /^(numeric|bigint)/.test(column.getSQLType());
}

/** What a column's value may be in the file; a value that fits but that PostgreSQL refuses is caught on restore. */
function valueSchema(column: PgColumn): z.ZodType {
  const type = column.getSQLType();
  // JSON columns hold any JSON: the body was parsed (and checked storable) already.
  if (/^jsonb?$/.test(type)) return z.unknown();
  const value = type === "boolean" ? z.boolean() : /^(smallint|integer)$/.test(type) ? z.number().int() : z.string();
  return column.notNull ? value : value.nullable();
}

/** Rows per query when exporting: PGlite slows down badly on one answer of tens of megabytes (48 s for 100,000 rows). */
const exportPage = 5_000;

interface TableLayout extends DataTable {
  /** SELECT of a page of rows in the file's form, after key $1 (null: from the start), in key order, with its last key. */
  page: string;
  rows: z.ZodType;
}

const layouts: TableLayout[] = dataTables.map((dataTable) => {
  const { columns } = getTableConfig(dataTable.table);
  const select = columns.map((column) => (exactText(column) ? `"${column.name}"::text AS "${column.name}"` : `"${column.name}"`));
  // Every data table has a one-column primary key (an id), which the pages follow.
  const [key, ...more] = columns.filter((column) => column.primary);
  if (!key || more.length > 0) throw new Error(`${dataTable.qualified} needs a one-column primary key to be carried by a snapshot`);
  const keyType = key.getSQLType();
  return {
    ...dataTable,
    page:
      `SELECT json_agg(r ORDER BY r."${key.name}")::text AS rows, max(r."${key.name}")::text AS last FROM ` +
      `(SELECT ${select.join(", ")} FROM ${dataTable.qualified} WHERE $1::${keyType} IS NULL OR "${key.name}" > $1::${keyType} ` +
      `ORDER BY "${key.name}" LIMIT ${exportPage}) r`,
    rows: z.array(z.strictObject(Object.fromEntries(columns.map((column) => [column.name, valueSchema(column)])))),
  };
});

/** A table's rows as one JSON array, read page by page on `client` (within the export's transaction). */
async function dumpTable(client: pg.ClientBase, layout: TableLayout): Promise<string> {
  const pages: string[] = [];
  let after: string | null = null;
  for (;;) {
    const answer: pg.QueryResult<{ rows: string | null; last: string | null }> = await client.query(layout.page, [after]);
    const page = answer.rows[0]!;
    if (page.rows === null) break;
    pages.push(page.rows.slice(1, -1));
    after = page.last;
  }
  return `[${pages.join(",")}]`;
}

/** What a file must start with; checked first, so a file of another format or version gets that one message. */
const snapshotHeader = z.object({
  format: z.literal(snapshotFormat, { error: `format must be "${snapshotFormat}" (a file from GET /sandbox/snapshot)` }),
  version: z.literal(snapshotVersion, { error: `version must be ${snapshotVersion}: this sandbox reads snapshots of version ${snapshotVersion}` }),
});

export const snapshotBody = snapshotHeader.extend({
  tables: z.strictObject(Object.fromEntries(layouts.map((layout) => [layout.name, layout.rows]))),
});

/**
 * Every table of the bank's data (sandbox-data.ts: all but the credentials) as one JSON document, read in one
 * repeatable-read transaction, so the file is one consistent state. PostgreSQL writes each table's JSON: the rows
 * never pass through JavaScript values.
 */
export async function exportSnapshot(ctx: SandboxContext): Promise<string> {
  const client = await ctx.database.pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const tables: string[] = [];
    for (const layout of layouts) {
      tables.push(`${JSON.stringify(layout.name)}:${await dumpTable(client, layout)}`);
    }
    await client.query("COMMIT");
    return `{"format":${JSON.stringify(snapshotFormat)},"version":${snapshotVersion},"tables":{${tables.join(",")}}}`;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Replaces the bank's data with a snapshot's, atomically (replaceData). A value PostgreSQL refuses (a bad time, a
 * duplicate id, a delivery of an unknown webhook) is a 400 naming the table, and nothing changes. Deliveries are
 * restored unclaimed: no worker of this sandbox holds them. The running clock takes the snapshot's offset.
 */
export async function restoreSnapshot(ctx: SandboxContext, snapshot: z.output<typeof snapshotBody>): Promise<Record<string, number>> {
  const restored = await replaceData(ctx, async (client, db) => {
    const counts: Record<string, number> = {};
    for (const layout of layouts) {
      const rows = snapshot.tables[layout.name] as unknown[];
      for (let start = 0; start < rows.length; start += restoreBatch) {
        const batch = JSON.stringify(rows.slice(start, start + restoreBatch));
        await client
          .query(`INSERT INTO ${layout.qualified} SELECT * FROM json_populate_recordset(null::${layout.qualified}, $1::json)`, [batch])
          .catch((error: unknown) => {
            // Data exceptions (22) and constraint violations (23) are the file's fault; anything else is ours.
            const code = (error as { code?: unknown }).code;
            if (typeof code === "string" && /^2[23]/.test(code)) throw badRequest(`tables.${layout.name}: ${(error as Error).message}`);
            throw error;
          });
      }
      counts[layout.name] = rows.length;
    }
    await releaseEveryClaim(db);
    return counts;
  });
  await reloadClock(ctx);
  return restored;
}

/** Reads a snapshot body: the header first, then every table (at most the first ten problems are named). */
async function readSnapshot(c: Context) {
  const body = await readJsonBody(c, z.unknown(), maxSnapshotBytes);
  const header = snapshotHeader.safeParse(body);
  if (!header.success) throw badRequest(describeZodError(header.error));
  const parsed = snapshotBody.safeParse(body);
  if (!parsed.success) throw badRequest(describeZodError(new z.ZodError(parsed.error.issues.slice(0, 10))));
  return parsed.data;
}

/** GET /sandbox/snapshot (the file) and PUT /sandbox/snapshot (restore it). */
export function mountSnapshot(app: Hono<AppEnv>, ctx: SandboxContext): void {
  app.get("/sandbox/snapshot", async (c) => {
    const file = await exportSnapshot(ctx);
    return c.body(file, 200, {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": 'attachment; filename="sandbox-snapshot.json"',
    });
  });
  app.put("/sandbox/snapshot", async (c) => {
    const snapshot = await readSnapshot(c);
    const restored = await restoreSnapshot(ctx, snapshot);
    ctx.log.info({ restored }, "sandbox snapshot restored");
    return c.json({ restored }, 200);
  });
}

const restoredAnswer = z.object({ restored: z.record(z.string(), z.number().int()).describe("Rows restored, by table") });

controlOperations.push(
  {
    method: "get",
    path: "/sandbox/snapshot",
    operationId: "get_sandbox_snapshot",
    summary: "Download every object, webhook, delivery, event and the clock as one JSON file",
    description: `A file \`{"format": "${snapshotFormat}", "version": ${snapshotVersion}, "tables": {...}}\` with every row of the bank's data (API keys excluded), for PUT /sandbox/snapshot.`,
    response: { status: 200, description: "The snapshot file", schema: snapshotBody },
  },
  {
    method: "put",
    path: "/sandbox/snapshot",
    operationId: "put_sandbox_snapshot",
    summary: "Restore a snapshot: the bank's data becomes exactly the file's (API keys stay)",
    description: "Atomic: a malformed file, another version, or a row the database refuses is a 400 naming it, and nothing changes.",
    body: snapshotBody,
    response: { status: 200, description: "Rows restored, by table", schema: restoredAnswer },
    errors: { 413: "The file is larger than 256 MiB", 415: "The body is not declared application/json" },
  },
);
