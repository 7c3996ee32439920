/**
 * `npm run db:migrate`: the console's migrations as a step of their own, before the new version's instances start
 * (docs/deploying.md). With DATABASE_MIGRATION_URL, they run as that owner role and DATABASE_URL's role is then granted
 * what the console needs (lib/db/roles.ts), as the console does at start; without it, as DATABASE_URL's role. The
 * instances then run without DATABASE_MIGRATION_URL: migrating again at their start finds nothing to do.
 */
import path from "node:path";
import { applyMigrations, connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { grantConsoleRuntime, roleOf } from "@/lib/db/roles";

const runtimeUrl = process.env.DATABASE_URL;
const ownerUrl = process.env.DATABASE_MIGRATION_URL ?? runtimeUrl;
if (!runtimeUrl || !ownerUrl) {
  console.error("Set DATABASE_URL (the console's role), and DATABASE_MIGRATION_URL when an owner role migrates (docs/database-roles.md).");
  process.exit(2);
}
const owner = connectDatabase(ownerUrl, schema, { max: 1 });
try {
  await applyMigrations(owner, path.join(process.cwd(), "drizzle/console"), "console");
} finally {
  await owner.close();
}
if (process.env.DATABASE_MIGRATION_URL) await grantConsoleRuntime(process.env.DATABASE_MIGRATION_URL, roleOf(runtimeUrl));
console.log(
  `console migrations applied as ${roleOf(ownerUrl)}${process.env.DATABASE_MIGRATION_URL ? `; ${roleOf(runtimeUrl)} granted the console's privileges` : ""}`,
);
