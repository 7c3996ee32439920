/**
 * Times seeding a data set into a fresh database and prints the figure:
 *   tsx sandbox/seed/time-seed.ts [demo|<ach count>] [postgres://... (a database to create a scratch copy in)]
 * Without a URL it runs on in-memory PGlite.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { createLogger } from "@/lib/log";
import { defaultSandboxSettings } from "@/sandbox/context";
import { openSandboxDatabase } from "@/sandbox/db";
import { seedDatabase, type SeedName } from "./index";

const [seedArgument = "demo", postgresUrl] = process.argv.slice(2);
const scratchName = `seed_timing_${process.pid}`;
const seed: SeedName = seedArgument === "demo" ? "demo" : Number(seedArgument);

/**
 * CPU seconds used so far by the PostgreSQL backends serving `database` (Linux /proc; the backend's command line
 * names its database). The machine may be busy with other work: CPU time says what the load itself costs.
 */
function backendCpuSeconds(database: string): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${database} `)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

const scratch = await createScratchDatabase(postgresUrl, scratchName);
const database = await openSandboxDatabase(scratch.url);
try {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await seedDatabase(
    {
      database,
      db: database.db,
      baseUrl: "http://127.0.0.1",
      settings: defaultSandboxSettings,
      now: () => new Date(),
      log: createLogger({ level: "info", service: "sandbox" }),
    },
    seed,
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const { rows } = await database.pool.query<{ count: string }>("SELECT count(*) FROM sandbox.ach");
  const cpuText = `this process's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s${postgresUrl ? `, PostgreSQL backends' CPU ${backendCpuSeconds(scratchName).toFixed(1)} s` : ""}`;
  console.log(`${postgresUrl ? "postgresql" : "pglite"}: seed ${seedArgument} (${rows[0]?.count} ACH rows) in ${seconds.toFixed(1)} s (${cpuText})`);
} finally {
  await database.close();
  await scratch.drop();
}
