/** Hosts one embedded PGlite for the benchmark in its own process and prints its URL as a JSON line. */
import { startEmbeddedPostgres } from "@/lib/db/embedded";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: embedded-db.ts <data directory>");
const embedded = await startEmbeddedPostgres({ dataDir });
console.log(JSON.stringify({ url: embedded.url }));
process.on("SIGTERM", () => void embedded.close().then(() => process.exit(0)));
