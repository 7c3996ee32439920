import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { metricsRoute } from "@/lib/metrics/route";

/** `/api/metrics`: Prometheus's text format, for METRICS_TOKEN's bearer or (unset) the loopback address (docs/operations.md). */
export const GET = metricsRoute({
  token: env.METRICS_TOKEN,
  trustedProxies: env.TRUSTED_PROXIES,
  registry: metrics.registry,
  db: async () => (await consoleDb()).db,
  log,
});

export const dynamic = "force-dynamic";
