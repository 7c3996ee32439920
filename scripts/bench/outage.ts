/**
 * `npx tsx scripts/bench/outage.ts`: a list page served from the console's index while the bank is down
 * (docs/bank-outage.md). An index backfilled from a sandbox bank seeded with BENCH_ROWS ACH transfers (default 100,000)
 * plus the demo set; then the bank is stopped and the breaker opened, and BENCH_REPEATS reads (default 50, after one
 * warm-up) of the ACH list's first page go through the proxy's route as a server page reads it (readThroughProxy: the
 * breaker's refusal, the index's page, masking for a viewer, the copy's age). p50 and p95 beside the target (< 300 ms),
 * on PostgreSQL (when a server answers at BENCH_DATABASE_URL) and PGlite on disk (BENCH_STORES=postgresql or pglite
 * for one). Markdown on stdout, progress on stderr.
 */
import { randomUUID } from "node:crypto";
import { bankProxyResolver } from "@/lib/api/bank-proxy";
import { indexCopies, indexCopyField } from "@/lib/api/index-fallback";
import { invokeRoute } from "@/lib/api/route";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import { createBankCircuit } from "@/lib/bank/circuit";
import { createBankClient } from "@/lib/bank/client";
import { applyMigrations, connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { runBackfill } from "@/lib/index/backfill";
import { createLogger } from "@/lib/log";
import { benchLog, stopChild, withScratchPglite, withScratchPostgresPair } from "./run";
import { startSeededSandbox } from "./seeded-sandbox";
import { timedRuns } from "./stats";

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 50);
const stores = (process.env.BENCH_STORES ?? "postgresql,pglite").split(",");
const target = 300;
const report: string[] = [];
const row = (cells: (string | number)[]) => report.push(`| ${cells.join(" | ")} |`);
const viewer = { id: "stf_bench_viewer", email: "viewer@demo.bank", name: "viewer", role: "viewer" as const, locked: false };
const silent = createLogger({ level: "silent" });

async function benchStore(name: string, sandboxDatabase: ScratchDatabase | undefined, consoleDatabase: ScratchDatabase) {
  benchLog(`${name}: seeding ${rows.toLocaleString("en-US")} ACH transfers and starting the sandbox bank...`);
  const { child: sandbox, client, url } = await startSeededSandbox(rows, sandboxDatabase?.url);
  const database = connectDatabase(consoleDatabase.url, schema);
  try {
    await applyMigrations(database, "drizzle/console", "console");
    await runBackfill({ db: database.db, client, environment: "sandbox", pageSize: 1000, pagesPerSecond: 0, log: silent });
    const [{ count }] = (await database.pool.query("SELECT count(*)::int AS count FROM console.bank_objects")).rows as [{ count: number }];
    await database.pool.query("ANALYZE console.bank_objects; ANALYZE console.bank_search");
    benchLog(`${name}: index of ${count} objects; stopping the bank`);
    await stopChild(sandbox);

    // The breaker opened by one failed read, and kept open for the whole run (no probe reaches for the stopped bank).
    const circuit = createBankCircuit("sandbox", { failures: 1, halfOpenAfterMs: 3_600_000 });
    const bank = createBankClient(
      { baseUrl: url, auth: { type: "basic", keyId: "bench", secret: "bench-secret" } },
      { retries: 0, timeoutMs: 1_000, circuit },
    );
    await bank.resources.list("ach", { page_size: 1 }).catch(() => undefined);
    if (circuit.snapshot().state !== "open") throw new Error("the breaker did not open");
    const proxy = bankProxyResolver({
      activeEnvironment: async () => "sandbox",
      bankClient: async () => bank,
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      recordAuditEvent: (entry) => recordAuditEvent(database.db, entry),
      indexCopies: indexCopies(async () => database.db),
    });
    const route = proxy.readRoute("list_ach")!;

    report.push(
      "",
      `### ${name}: ${count.toLocaleString("en-US")} objects in the index (${rows.toLocaleString("en-US")} ACH transfers + the demo set)`,
      "",
    );
    row(["ACH list, breaker open, as a viewer", "rows", "p50", "p95", `p95 < ${target} ms`]);
    row(["---", "---:", "---:", "---:", "---"]);
    for (const [label, query] of [
      ["first page of 50", { page_size: "50" }],
      ["first page of 100", { page_size: "100" }],
      ["first page of 100, status=sent", { page_size: "100", status: "sent" }],
    ] as const) {
      const read = () => invokeRoute(route, { requestId: randomUUID(), log: silent, user: viewer, params: {}, query });
      const answer = (await read()) as { data: unknown[]; [indexCopyField]?: unknown };
      if (!answer[indexCopyField]) throw new Error(`${label}: not answered from the index`);
      const times = await timedRuns(read, repeats);
      benchLog(`${name}: ${label} p50 ${times.p50.toFixed(1)} ms, p95 ${times.p95.toFixed(1)} ms`);
      row([label, answer.data.length, `${times.p50.toFixed(1)} ms`, `${times.p95.toFixed(1)} ms`, times.p95 < target ? "met" : "**missed**"]);
    }
  } finally {
    await database.close();
    await stopChild(sandbox);
  }
}

report.push(`## A list from the index with the bank down (${new Date().toISOString().slice(0, 10)}, ${repeats} runs after one warm-up)`);
if (stores.includes("postgresql")) {
  await withScratchPostgresPair("bench_outage", (databases) => benchStore("PostgreSQL", databases.sandbox, databases.console));
}
if (stores.includes("pglite")) await withScratchPglite((database) => benchStore("PGlite", undefined, database));
console.log(report.join("\n"));
process.exit(0);
