import { describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { ConsoleError } from "@/lib/api/errors";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createBankClient } from "@/lib/bank/client";
import { watchLiveSessions } from "@/lib/index/live-feed-sessions";
import { createLogger } from "@/lib/log";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { sandboxClient } from "@/tests/support/sandbox-client";
import { metrics, routePattern } from "./registry";

// What the console records as it works, read back from the registry /api/metrics serves: requests through the ONE
// route wrapper, calls to a real sandbox bank over HTTP, and live streams. Sign-in failures: stored-gauges.test.ts.

const operations: StaffUser = { id: "stf_ops", email: "ops@demo.bank", name: "Ops", role: "operations", locked: false };
const silent = createLogger({ level: "silent" });

/** The value of the series of `name` whose labels include `labels` (0 when there is none yet). */
async function valueOf(name: string, labels: Record<string, string>): Promise<number> {
  const family = name.replace(/_(count|sum|bucket)$/, "");
  const metric = metrics.registry.getSingleMetric(family);
  if (!metric) throw new Error(`no metric ${family}`);
  const { values } = await metric.get();
  const series = values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? family) === name &&
      Object.entries(labels).every(([key, wanted]) => String(value.labels[key as never]) === wanted),
  );
  return series?.value ?? 0;
}

describe("routePattern", () => {
  it("names each path parameter instead of its value, a catch-all by its whole tail", () => {
    expect(routePattern("/api/approvals/apr_123/approve", { id: "apr_123" })).toBe("/api/approvals/[id]/approve");
    expect(routePattern("/api/bank/ach/ach_9f2", { path: ["ach", "ach_9f2"] })).toBe("/api/bank/[...path]");
    expect(routePattern("/api/bank-events/sandbox", { environment: "sandbox" })).toBe("/api/bank-events/[environment]");
    expect(routePattern("/api/export/ach", { resource: "ach" })).toBe("/api/export/[resource]");
    expect(routePattern("/api/health", {})).toBe("/api/health");
  });

  it("matches a percent-encoded segment by its decoded value, and keeps a static segment that merely looks like it", () => {
    expect(routePattern("/api/names/a%20b", { name: "a b" })).toBe("/api/names/[name]");
    expect(routePattern("/api/reviews/open/open", { id: "open" })).toBe("/api/reviews/open/[id]");
  });
});

describe("console_http_requests_total and console_http_request_duration_seconds", () => {
  it("count each answer of the route wrapper by route pattern, method and status, refusals included", async () => {
    const apiRoute = createApiRoute({ currentUser: async () => operations, log: silent });
    const handler = apiRoute({ permission: "bank:read", handle: async ({ params }) => ({ params }) });
    const context = { params: Promise.resolve({ id: "apr_6b1c" }) };
    const labels = { route: "/api/approvals/[id]", method: "GET", status: "200" };
    const before = await valueOf("console_http_requests_total", labels);
    const timedBefore = await valueOf("console_http_request_duration_seconds_count", labels);
    expect((await handler(new Request("http://console.test/api/approvals/apr_6b1c"), context)).status).toBe(200);
    expect(await valueOf("console_http_requests_total", labels)).toBe(before + 1);
    expect(await valueOf("console_http_request_duration_seconds_count", labels)).toBe(timedBefore + 1);

    // Signed out: refused before the parameters were read, still counted under the route's pattern.
    const signedOut = createApiRoute({ currentUser: async () => null, log: silent })({ permission: "bank:read", handle: async () => ({}) });
    const refused = { route: "/api/bank/[...path]", method: "DELETE", status: "401" };
    const refusedBefore = await valueOf("console_http_requests_total", refused);
    await signedOut(new Request("http://console.test/api/bank/ach/ach_1", { method: "DELETE" }), {
      params: Promise.resolve({ path: ["ach", "ach_1"] }),
    });
    expect(await valueOf("console_http_requests_total", refused)).toBe(refusedBefore + 1);

    const failing = apiRoute({ permission: "bank:read", handle: async () => Promise.reject(new ConsoleError(409, "conflict", "Already done.")) });
    const conflict = { route: "/api/thing", method: "GET", status: "409" };
    const conflictBefore = await valueOf("console_http_requests_total", conflict);
    await failing(new Request("http://console.test/api/thing"));
    expect(await valueOf("console_http_requests_total", conflict)).toBe(conflictBefore + 1);

    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/apr_6b1c|ach_1"/);
    expect(text).toContain('console_http_request_duration_seconds_bucket{le="0.005",route="/api/approvals/[id]",method="GET",status="200"}');
  });
});

describe("console_bank_requests_total and console_bank_request_duration_seconds against the sandbox bank", () => {
  const key = { id: "key_metrics_test", secret: "metrics-test-secret-0123456789" };
  const sandbox = sandboxBankForFile(key);

  it("count each call by operation and the bank's status, and time it", async () => {
    const ok = { operation: "list_ach", status: "200" };
    const okBefore = await valueOf("console_bank_requests_total", ok);
    const timedBefore = await valueOf("console_bank_request_duration_seconds_count", ok);
    await sandbox.bank.call("list_ach", { query: { page_size: 2 } });
    expect(await valueOf("console_bank_requests_total", ok)).toBe(okBefore + 1);
    expect(await valueOf("console_bank_request_duration_seconds_count", ok)).toBe(timedBefore + 1);
    expect(await valueOf("console_bank_request_duration_seconds_sum", ok)).toBeGreaterThan(0);

    const missing = { operation: "get_ach", status: "404" };
    const missingBefore = await valueOf("console_bank_requests_total", missing);
    await expect(sandbox.bank.call("get_ach", { params: { id: "ach_does_not_exist" } })).rejects.toMatchObject({ status: 404 });
    expect(await valueOf("console_bank_requests_total", missing)).toBe(missingBefore + 1);
  });

  it("count a read the bank keeps failing once, under its last status, its retries and their waits in its time", async () => {
    const control = sandboxClient(sandbox.sandbox.url, key.id, key.secret);
    expect((await control("/sandbox/faults", { method: "POST", json: { match: "GET /card", status: 503, times: 2 } })).status).toBe(201);
    const bank = createBankClient(
      { baseUrl: sandbox.sandbox.url, auth: { type: "basic", keyId: key.id, secret: key.secret } },
      { retries: 1, retryBaseMs: 1 },
    );
    const failed = { operation: "list_card", status: "503" };
    const before = await valueOf("console_bank_requests_total", failed);
    await expect(bank.call("list_card", {})).rejects.toMatchObject({ status: 503, attempts: 2 });
    expect(await valueOf("console_bank_requests_total", failed)).toBe(before + 1);
    expect(await valueOf("console_bank_requests_total", { operation: "list_card", status: "200" })).toBe(0);
  });

  it("count a bank that cannot be reached by the failure's kind, once per call however many attempts it took", async () => {
    const closed = createBankClient({ baseUrl: "http://127.0.0.1:1", auth: { type: "bearer", token: "t" } }, { retries: 1, retryBaseMs: 1 });
    const unreachable = { operation: "list_ach", status: "unreachable" };
    const before = await valueOf("console_bank_requests_total", unreachable);
    await expect(closed.call("list_ach", {})).rejects.toMatchObject({ kind: "unreachable", attempts: 2 });
    expect(await valueOf("console_bank_requests_total", unreachable)).toBe(before + 1);
  });
});

describe("console_live_connections", () => {
  it("counts the live streams a process admits until each is released", async () => {
    const watch = watchLiveSessions({ token: async () => null, check: async () => ({ ok: true }) as never, onAccessChange: () => () => {} });
    const token = { sid: "ses_1", sub: "stf_ops" } as Parameters<typeof watch.admit>[0];
    const before = await valueOf("console_live_connections", {});
    const releases = [watch.admit(token, () => {}), watch.admit(token, () => {})];
    expect(await valueOf("console_live_connections", {})).toBe(before + 2);
    for (const release of releases) release();
    releases[0]!();
    expect(await valueOf("console_live_connections", {})).toBe(before);
  });
});
