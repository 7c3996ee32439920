import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type * as schema from "./console-schema";

/** The console's database as every query module takes it (PGlite and PostgreSQL both behind node-postgres's face). */
export type ConsoleDb = NodePgDatabase<typeof schema>;
