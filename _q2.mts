import pg from "pg";
import { readFileSync } from "node:fs";
const url = process.argv[2]!;
const dbPid = Number(process.argv[3]);
const cpuOf = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) / 100; };
const pool = new pg.Pool({ connectionString: url, max: 4 });
const client = new pg.Client({ connectionString: url }); await client.connect();
const variants: Record<string, () => Promise<unknown>> = {
  "pool simple": () => pool.query("SELECT version FROM v"),
  "pool prepared": () => pool.query({ name: "v", text: "SELECT version FROM v" }),
  "client simple": () => client.query("SELECT version FROM v"),
  "client prepared": () => client.query({ name: "v", text: "SELECT version FROM v" }),
  "client prepared rowMode array": () => client.query({ name: "v2", text: "SELECT version FROM v", rowMode: "array" }),
};
for (const [label, run] of Object.entries(variants)) {
  for (let i = 0; i < 500; i++) await run();
  const n = 3000; const c0 = process.cpuUsage(); const d0 = dbPid ? cpuOf(dbPid) : 0; const t0 = performance.now();
  for (let i = 0; i < n; i++) await run();
  const t = performance.now() - t0; const c = process.cpuUsage(c0); const d = dbPid ? cpuOf(dbPid) - d0 : 0;
  console.log(label.padEnd(32), "wall", (t / n * 1000).toFixed(0), "µs; client CPU", ((c.user + c.system) / n).toFixed(0), "µs; db CPU", (d * 1e6 / n).toFixed(0), "µs");
}
await pool.end(); await client.end();
