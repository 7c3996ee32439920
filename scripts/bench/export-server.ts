/**
 * The console's export code path in a process of its own, for `npm run bench:export`: the real route handler
 * (lib/api's wrapper around lib/export/bank-export.ts) with a real bank client and a real audit trail, served over
 * HTTP. Only the session is given (a fixed admin), as in the route's tests. It samples its own memory every 20 ms;
 * `GET /peaks` answers the peaks since the previous `GET /peaks` and starts over. Prints `{"port"}` when ready.
 *
 * Environment: BANK_URL, BANK_API_KEY_ID, BANK_API_KEY_SECRET (the sandbox bank), DATABASE_URL (the console's audit
 * trail, migrated here), PORT.
 */
import path from "node:path";
import { serve } from "@hono/node-server";
import { createApiRoute } from "@/lib/api/route";
import { audited } from "@/lib/audit/trail";
import { createBankClient } from "@/lib/bank/client";
import { applyMigrations, connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { bankExportResolver } from "@/lib/export/bank-export";
import { createLogger } from "@/lib/log";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}
const database = connectDatabase(required("DATABASE_URL"), schema);
await applyMigrations(database, path.resolve("drizzle/console"), "console");
const bank = createBankClient({
  baseUrl: required("BANK_URL"),
  auth: { type: "basic", keyId: required("BANK_API_KEY_ID"), secret: required("BANK_API_KEY_SECRET") },
});
const admin = { id: "stf_bench", email: "bench@demo.bank", name: "bench", role: "admin" as const, locked: false };

const handler = createApiRoute({ currentUser: async () => admin, log: createLogger({ level: "warn" }) })(
  bankExportResolver({
    activeEnvironment: async () => "sandbox",
    bankClient: async () => bank,
    audited: (entry, perform, options) => audited(database.db, entry, perform, options),
    indexDb: async () => database.db,
  }),
);

const peaks = { rss: 0, heapUsed: 0 };
const sample = () => {
  const { rss, heapUsed } = process.memoryUsage();
  peaks.rss = Math.max(peaks.rss, rss);
  peaks.heapUsed = Math.max(peaks.heapUsed, heapUsed);
};
setInterval(sample, 20).unref();

const server = serve({
  port: Number(required("PORT")),
  hostname: "127.0.0.1",
  fetch: (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/peaks") {
      sample();
      const answer = Response.json({ ...peaks });
      peaks.rss = 0;
      peaks.heapUsed = 0;
      return answer;
    }
    const resource = /^\/api\/export\/([^/]+)$/.exec(pathname)?.[1];
    return handler(request, { params: Promise.resolve({ resource }) });
  },
});
server.once("listening", () => console.log(JSON.stringify({ port: Number(process.env.PORT) })));
process.on("SIGTERM", () => server.close(() => void database.close().then(() => process.exit(0))));
