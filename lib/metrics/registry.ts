import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The console's Prometheus metrics (docs/operations.md lists each with its alerts), in one registry served by
 * `/api/metrics`. Recorded where things happen: the route wrapper (lib/api/route.ts), the bank transport
 * (lib/bank/transport.ts), the live streams and password sign-in; the stored ones (index, approvals, reviews) are read
 * from the database at scrape time (lib/metrics/stored-gauges.ts). No `server-only`: it holds no secret, and the
 * bank transport that records into it also runs under tsx in the benchmark scripts.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // Seconds: a list read on a warm connection takes milliseconds, an export page or a timeout up to tens of seconds.
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  return {
    registry,
    httpRequests: new Counter({
      name: "console_http_requests_total",
      help: "API requests answered by the console's route wrapper, by route pattern, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "console_http_request_duration_seconds",
      help: "Time from a request reaching the route wrapper to its answer (a stream: to its first byte).",
      labelNames: ["route", "method", "status"] as const,
      buckets,
      registers,
    }),
    bankRequests: new Counter({
      name: "console_bank_requests_total",
      help: "Calls to a bank (retries included in one call), by operation and the bank's HTTP status or the failure.",
      labelNames: ["operation", "status"] as const,
      registers,
    }),
    bankDuration: new Histogram({
      name: "console_bank_request_duration_seconds",
      help: "Time of one call to a bank, its retries and their waits included.",
      labelNames: ["operation", "status"] as const,
      buckets,
      registers,
    }),
    signInFailures: new Counter({
      name: "console_sign_in_failures_total",
      help: "Password sign-ins refused: wrong email, password or locked user (refused), or stopped by the throttle (throttled).",
      labelNames: ["reason"] as const,
      registers,
    }),
    liveConnections: new Gauge({
      name: "console_live_connections",
      help: "Live streams (/api/live) open in this process.",
      registers,
    }),
    bankCircuitState: new Gauge({
      name: "console_bank_circuit_state",
      help: "The circuit breaker on bank reads per environment (lib/bank/circuit.ts): 0 closed, 1 half-open, 2 open.",
      labelNames: ["environment"] as const,
      registers,
    }),
  };
}

export type ConsoleMetrics = ReturnType<typeof createMetrics>;

/** One set per process: Next.js bundles each route with its own copy of this module (as lib/db/console.ts notes). */
export const metrics: ConsoleMetrics = ((globalThis as { __consoleMetrics?: ConsoleMetrics }).__consoleMetrics ??= createMetrics());

type Children = { count: { inc(): void }; duration: { observe(value: number): void } };
const bankChildren = new Map<string, Map<number | string, Children>>();

/**
 * Records one bank call from the transport's hot path: the label children are looked up once per (operation, status)
 * and kept, so a call costs two map reads, an increment and an observe.
 */
export function recordBankCall(operation: string, status: number | string, startedMs: number): void {
  let byStatus = bankChildren.get(operation);
  if (!byStatus) bankChildren.set(operation, (byStatus = new Map()));
  let children = byStatus.get(status);
  if (!children) {
    const label = String(status);
    children = { count: metrics.bankRequests.labels(operation, label), duration: metrics.bankDuration.labels(operation, label) };
    byStatus.set(status, children);
  }
  children.count.inc();
  children.duration.observe((performance.now() - startedMs) / 1000);
}

/**
 * The route pattern of a request, for the `route` label: each path parameter's segment replaced by its name
 * (`/api/approvals/[id]`, `/api/bank/[...path]`), so no object id ever becomes a label value.
 */
export function routePattern(pathname: string, params: Record<string, string | string[] | undefined>): string {
  const segments = pathname.split("/");
  const replaced = new Set<number>();
  // The catch-all first: the other parameters are then looked for only among the segments before it.
  const entries = Object.entries(params).sort(([, a], [, b]) => Number(Array.isArray(b)) - Number(Array.isArray(a)));
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      // A catch-all is the route's last part: its segments are the path's last ones.
      const from = Math.max(1, segments.length - value.length);
      segments.splice(from, segments.length - from, `[...${name}]`);
      continue;
    }
    for (let index = segments.length - 1; index > 0; index--) {
      if (!replaced.has(index) && safeDecode(segments[index]!) === value) {
        segments[index] = `[${name}]`;
        replaced.add(index);
        break;
      }
    }
  }
  return segments.join("/");
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Records one answered API request (lib/api/route.ts). */
export function recordHttpRequest(route: string, method: string, status: number, startedMs: number): void {
  const labels = { route, method, status: String(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, (performance.now() - startedMs) / 1000);
}
