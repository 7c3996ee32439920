import path from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { env } from "./env";

const embedded = env.SANDBOX_DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres({
      dataDir: env.SANDBOX_DATA === "memory" ? undefined : path.join(env.DATA_ROOT, `sandbox-${env.SANDBOX_PORT}`),
    });

const app = new Hono();
app.get("/health", (c) => c.json({ status: "ok" }));

const server = serve({ fetch: app.fetch, hostname: env.HOST, port: env.SANDBOX_PORT }, (info) => {
  console.log(`sandbox bank listening on http://${info.address}:${info.port}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    void embedded?.close().finally(() => process.exit(0));
    if (!embedded) process.exit(0);
  });
}
