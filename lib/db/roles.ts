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
    // The index of the bank (docs/bank-index.md): written by the console's worker, purged by retention.
    `GRANT SELECT, INSERT, UPDATE, DELETE ON console.receiver_credentials, console.bank_event_inbox, console.bank_objects, console.bank_object_versions, console.index_backfill TO ${who}`,
    `GRANT USAGE ON SEQUENCE console.bank_event_inbox_id_seq, console.bank_object_versions_id_seq TO ${who}`,
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
