import pg from "pg";
import { verifyAuditChain } from "@/lib/audit/chain";

/**
 * `npm run audit:verify`: recomputes the audit trail's hash chain (lib/audit/chain.ts, docs/audit-trail.md) in the
 * console's database (AUDIT_VERIFY_URL, else DATABASE_MIGRATION_URL, else DATABASE_URL) and reports the first broken
 * link. Exit 0 when the chain holds (the head hash is printed: keep it elsewhere), 1 when it does not, 2 without a URL.
 */
const url = process.env.AUDIT_VERIFY_URL ?? process.env.DATABASE_MIGRATION_URL ?? process.env.DATABASE_URL;
if (!url) {
  console.error(
    "Set DATABASE_URL (or AUDIT_VERIFY_URL) to the console's PostgreSQL database; a running embedded console database can be reached at the URL npm start prints.",
  );
  process.exit(2);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const report = await verifyAuditChain(client);
  if (report.broken) {
    const where = report.broken.seq === null ? `record ${report.broken.recordId}` : `link ${report.broken.seq} (record ${report.broken.recordId})`;
    console.error(`audit trail BROKEN at ${where}: ${report.broken.problem}. ${report.links} links before it hold.`);
    process.exitCode = 1;
  } else {
    console.log(`audit trail intact: ${report.links} links, head ${report.head ?? "(empty)"}`);
  }
} finally {
  await client.end();
}
