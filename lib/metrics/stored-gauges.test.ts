import { sql } from "drizzle-orm";
import { Registry } from "prom-client";
import { beforeAll, describe, expect, it } from "vitest";
import { passwordSignIn } from "@/lib/auth/password-sign-in";
import { bankEventInbox, bankObjects, changeRequests, reviewCases } from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { metrics } from "./registry";
import { metricsRoute } from "./route";
import { readStoredGauges } from "./stored-gauges";

// The gauges read from the console's database at scrape time, on a real database of each kind, and the whole scrape.

const silent = createLogger({ level: "silent" });
const ago = (interval: string) => sql`now() - ${interval}::interval`;

/** The scrape's line for `series` (`name{labels}`), parsed: the value, or undefined when the series is absent. */
function valueIn(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const request = (environment: "sandbox" | "production", minutesAgo: number, expiresInMinutes: number) => ({
  environment,
  kind: "bank" as const,
  action: "userdata.update",
  permission: "userdata:write",
  makerId: "stf_maker",
  makerEmail: "maker@demo.bank",
  makerRole: "operations",
  requestId: "req_1",
  requestedAt: ago(`${minutesAgo} minutes`) as unknown as Date,
  expiresAt: sql`now() + ${`${expiresInMinutes} minutes`}::interval` as unknown as Date,
});

for (const target of testDatabaseTargets) {
  describe(`the stored gauges (${target.name})`, () => {
    const database = migratedConsoleDatabase(target);
    let text: string;

    beforeAll(async () => {
      const { db } = database;
      // The index: sandbox changed 90 s ago, two notifications waiting (the older 10 min), one processed; production empty.
      await db.insert(bankObjects).values([
        { environment: "sandbox", id: "ach_1", resource: "ach", state: { id: "ach_1" }, version: 1, lastChangedAt: ago("10 minutes") as never },
        { environment: "sandbox", id: "ach_2", resource: "ach", state: { id: "ach_2" }, version: 1, lastChangedAt: ago("90 seconds") as never },
      ]);
      const notification = { environment: "sandbox" as const, event: "ach.update", op: "update", resource: "ach", url: "http://bank/ach/ach_1" };
      await db.insert(bankEventInbox).values([
        { ...notification, objectId: "ach_1", receivedAt: ago("10 minutes") as never },
        { ...notification, objectId: "ach_2", state: "processing", attempts: 1 },
        { ...notification, objectId: "ach_3", state: "processed", outcome: "changed", receivedAt: ago("1 hour") as never },
      ]);
      // Approvals: two waiting (30 min and 5 h), one expired and one decided, neither counted.
      await db
        .insert(changeRequests)
        .values([
          request("production", 30, 600),
          request("production", 300, 600),
          request("production", 2000, -1),
          { ...request("sandbox", 10, 600), state: "rejected" as const, decidedById: "stf_checker" },
        ]);
      // Reviews: three applications in the index, 2 h and 2 days old, one decided; a person (not an application) ignored.
      const application = (id: string, age: string, resource = "person_application") => ({
        environment: "sandbox" as const,
        id,
        resource,
        state: { id },
        version: 1,
        bankCreatedAt: ago(age) as never,
        lastChangedAt: ago("5 minutes") as never,
      });
      await db
        .insert(bankObjects)
        .values([
          application("pap_young", "2 hours"),
          application("bap_old", "2 days", "business_application"),
          application("pap_decided", "2 days"),
          application("per_1", "5 days", "person"),
        ]);
      await db.insert(reviewCases).values({ environment: "sandbox", applicationId: "pap_decided", kind: "person_application", state: "decided" });

      const registry = new Registry();
      await readStoredGauges(async () => db, registry, silent);
      text = await registry.metrics();
    });

    it("reports the index lag per environment from its newest change, and none for an environment it holds nothing of", () => {
      const lag = valueIn(text, 'console_index_lag_seconds{environment="sandbox"}')!;
      expect(lag).toBeGreaterThanOrEqual(89);
      expect(lag).toBeLessThan(150);
      expect(valueIn(text, 'console_index_lag_seconds{environment="production"}')).toBeUndefined();
    });

    it("reports the notifications waiting per environment and the age of the oldest; processed ones are not counted", () => {
      expect(valueIn(text, 'console_index_inbox_depth{environment="sandbox"}')).toBe(2);
      expect(valueIn(text, 'console_index_inbox_depth{environment="production"}')).toBe(0);
      expect(valueIn(text, 'console_index_inbox_oldest_seconds{environment="sandbox"}')).toBeGreaterThanOrEqual(599);
      expect(valueIn(text, 'console_index_inbox_oldest_seconds{environment="production"}')).toBe(0);
    });

    it("reports pending approvals by age, expired and decided ones left out, every bucket present", () => {
      expect(valueIn(text, 'console_approvals_pending{environment="production",age="under_1h"}')).toBe(1);
      expect(valueIn(text, 'console_approvals_pending{environment="production",age="4h_to_24h"}')).toBe(1);
      expect(valueIn(text, 'console_approvals_pending{environment="production",age="over_3d"}')).toBe(0);
      expect(valueIn(text, 'console_approvals_pending{environment="sandbox",age="under_1h"}')).toBe(0);
      expect(valueIn(text, 'console_approvals_pending_oldest_seconds{environment="production"}')).toBeGreaterThanOrEqual(5 * 3600 - 1);
    });

    it("reports applications in the review queue without a confirmed decision, by age", () => {
      expect(valueIn(text, 'console_reviews_pending{environment="sandbox",age="1h_to_4h"}')).toBe(1);
      expect(valueIn(text, 'console_reviews_pending{environment="sandbox",age="1d_to_3d"}')).toBe(1);
      expect(valueIn(text, 'console_reviews_pending{environment="sandbox",age="over_3d"}')).toBe(0);
      expect(valueIn(text, 'console_reviews_pending_oldest_seconds{environment="sandbox"}')).toBeGreaterThanOrEqual(2 * 86400 - 1);
      for (const source of ["index", "approvals", "reviews"]) expect(valueIn(text, `console_metrics_source_up{source="${source}"}`)).toBe(1);
    });

    it("serves every metric through /api/metrics, sign-in failures counted by reason", async () => {
      const authorize = passwordSignIn({ db: async () => database.db, trustedProxies: [], refusalDelayMs: 0 });
      const refusedBefore = (await metrics.signInFailures.get()).values.find((value) => value.labels.reason === "refused")?.value ?? 0;
      const signIn = new Request("http://console.test/api/auth/callback/credentials", {
        method: "POST",
        headers: { "x-forwarded-for": "192.0.2.7" },
      });
      expect(await authorize({ email: "nobody@demo.bank", password: "wrong" }, signIn)).toBeNull();

      const token = "metrics-token-for-the-scrape-test-0123456789";
      const GET = metricsRoute({ token, trustedProxies: [], registry: metrics.registry, db: async () => database.db, log: silent });
      const response = await GET(new Request("http://console.test/api/metrics", { headers: { authorization: `Bearer ${token}` } }));
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const scraped = await response.text();
      expect(valueIn(scraped, 'console_sign_in_failures_total{reason="refused"}')).toBe(refusedBefore + 1);
      for (const name of [
        "console_http_requests_total",
        "console_http_request_duration_seconds",
        "console_bank_requests_total",
        "console_bank_request_duration_seconds",
        "console_sign_in_failures_total",
        "console_live_connections",
        "console_index_lag_seconds",
        "console_index_inbox_depth",
        "console_index_inbox_oldest_seconds",
        "console_approvals_pending",
        "console_approvals_pending_oldest_seconds",
        "console_reviews_pending",
        "console_reviews_pending_oldest_seconds",
        "console_metrics_source_up",
        // prom-client's default process metrics
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_eventloop_lag_seconds",
      ]) {
        expect(scraped).toContain(`# TYPE ${name} `);
      }
      expect(valueIn(scraped, 'console_index_inbox_depth{environment="sandbox"}')).toBe(2);
    });
  });
}
