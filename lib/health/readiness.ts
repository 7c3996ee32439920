import type { Pool } from "pg";

/** The console's readiness: 200 once its database is open, migrated and answering; otherwise 503, never a stack. */
export function readinessRoute(openDatabase: () => Promise<{ pool: Pick<Pool, "query"> }>) {
  return async function GET(): Promise<Response> {
    try {
      const { pool } = await openDatabase();
      await pool.query("SELECT 1");
      return Response.json({ status: "ok" });
    } catch {
      return Response.json({ status: "unavailable", error: "The console's database is not reachable" }, { status: 503 });
    }
  };
}
