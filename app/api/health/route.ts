import { consoleDb } from "@/lib/db/console";

/** Liveness and readiness: answers 200 once the console's database is open and migrated. */
export async function GET() {
  try {
    const { pool } = await consoleDb();
    await pool.query("SELECT 1");
    return Response.json({ status: "ok" });
  } catch {
    return Response.json({ status: "unavailable", error: "The console's database is not reachable" }, { status: 503 });
  }
}
