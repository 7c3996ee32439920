import { sql } from "drizzle-orm";
import { bigint, check, smallint } from "drizzle-orm/pg-core";
import { sandboxSchema } from "./tables";

/**
 * The sandbox clock (sandbox/control/clock.ts): how far it runs ahead of the wall clock, in milliseconds. One row at
 * most (no row: no offset); kept in the database so that a restart and a snapshot keep the clock where it was.
 */
export const sandboxClock = sandboxSchema.table(
  "clock",
  {
    id: smallint().primaryKey().default(1),
    offset_ms: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [check("clock_single_row", sql`${t.id} = 1`)],
);
