import pg from "pg";

/**
 * Database roles on PostgreSQL (docs/database-roles.md): a migration role owns the console's tables and the audit
 * trail's append-only trigger; the console runs as a role that may read and write its own tables but, on the audit
 * trail, only insert records and set their outcome once; the sandbox bank runs as a role that owns the `sandbox`
 * schema and has no access to `console`. Run by the migration role after the console's migrations.
 */
export const consoleRuntimeGrants = (role: string) => {
  const who = pg.escapeIdentifier(role);
  return [
    // Nothing in `console` for anyone not named here (the sandbox's role included).
    `REVOKE ALL ON SCHEMA console FROM PUBLIC`,
    `GRANT USAGE ON SCHEMA console TO ${who}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON console.staff_users, console.bank_credentials, console.sign_in_throttle, console.staff_sessions TO ${who}`,
    // The trail: add a record, and finalize it (the trigger allows that once, and only these columns change).
    // The access version is raised by triggers running as its owner; the console only reads it (lib/auth/access-cache.ts).
    `GRANT SELECT ON console.access_version TO ${who}`,
    `GRANT SELECT, INSERT ON console.audit_records TO ${who}`,
    `GRANT UPDATE (outcome, "after", error, finished_at) ON console.audit_records TO ${who}`,
    `GRANT USAGE ON SEQUENCE console.audit_records_id_seq TO ${who}`,
    // The hash chain is written only by the trigger (as its owner); the console may read it (npm run audit:verify).
    `GRANT SELECT ON console.audit_chain TO ${who}`,
    // The index of the bank (docs/bank-index.md): written by the console's worker, purged by retention.
    `GRANT SELECT, INSERT, UPDATE, DELETE ON console.receiver_credentials, console.bank_event_inbox, console.bank_objects, console.bank_object_versions, console.index_backfill, console.bank_search TO ${who}`,
    `GRANT USAGE ON SEQUENCE console.bank_event_inbox_id_seq, console.bank_object_versions_id_seq TO ${who}`,
    // Its counts are kept by triggers running as their owner (migration 0023); the console only reads them.
    `GRANT SELECT ON console.bank_object_counts TO ${who}`,
    // Compliance review (docs/reviews.md): cases and checklists change; notes are only ever added; a proposed decision
    // is resolved once (its trigger guards what changes).
    `GRANT SELECT, INSERT, UPDATE ON console.review_cases, console.review_checklist_items TO ${who}`,
    `GRANT SELECT, INSERT ON console.review_notes, console.review_checklist_notes TO ${who}`,
    `GRANT SELECT, INSERT ON console.review_decisions TO ${who}`,
    `GRANT UPDATE (state, resolved_by_id, resolved_by_email, resolved_at, resolution_note) ON console.review_decisions TO ${who}`,
    `GRANT USAGE ON SEQUENCE console.review_notes_id_seq, console.review_checklist_notes_id_seq, console.review_decisions_id_seq TO ${who}`,
    // Four-eyes on changes (docs/approvals.md): settings change; a request is added, decided once and its outcome
    // recorded once (its trigger guards what changes); none is deleted.
    `GRANT SELECT, INSERT, UPDATE ON console.change_approval_settings TO ${who}`,
    `GRANT SELECT, INSERT ON console.change_requests TO ${who}`,
    `GRANT UPDATE (state, decided_by_id, decided_by_email, decided_by_role, decided_at, decision_note, outcome, sent_at, result, error) ON console.change_requests TO ${who}`,
    `GRANT USAGE ON SEQUENCE console.change_requests_id_seq TO ${who}`,
    // Saved views of lists (docs/search.md): staff add and remove their own.
    `GRANT SELECT, INSERT, DELETE ON console.saved_views TO ${who}`,
    // Bulk actions (lib/bulk/): jobs and their rows are claimed, settled and kept.
    `GRANT SELECT, INSERT, UPDATE ON console.bulk_jobs, console.bulk_rows TO ${who}`,
  ];
};

export async function grantConsoleRuntime(migrationUrl: string, role: string): Promise<void> {
  const client = new pg.Client({ connectionString: migrationUrl });
  await client.connect();
  try {
    for (const statement of consoleRuntimeGrants(role)) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The role a connection URL signs in as. */
export const roleOf = (url: string) => decodeURIComponent(new URL(url).username) || "postgres";

/**
 * The one-time setup a PostgreSQL superuser runs for a database (the same statements are in docs/database-roles.md):
 * the three login roles, the right to create schemas for the two owners, and the shared migrations schema.
 */
export function roleSetupStatements(database: string, roles: { migration: string; console: string; sandbox: string }): string[] {
  const [migration, consoleRole, sandbox, db] = [roles.migration, roles.console, roles.sandbox, database].map((name) => pg.escapeIdentifier(name));
  return [
    `CREATE ROLE ${migration} LOGIN`,
    `CREATE ROLE ${consoleRole} LOGIN`,
    `CREATE ROLE ${sandbox} LOGIN`,
    `GRANT CONNECT ON DATABASE ${db} TO ${consoleRole}`,
    `GRANT CONNECT, CREATE ON DATABASE ${db} TO ${migration}, ${sandbox}`,
    // drizzle keeps both parts' migration journals in schema `drizzle`; each owner writes its own table there.
    `CREATE SCHEMA IF NOT EXISTS drizzle AUTHORIZATION ${migration}`,
    `GRANT USAGE, CREATE ON SCHEMA drizzle TO ${sandbox}`,
    `REVOKE CREATE ON SCHEMA public FROM PUBLIC`,
  ];
}
