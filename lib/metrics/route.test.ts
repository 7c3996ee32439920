import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { ConsoleDb } from "@/lib/db/console-db";
import { consoleEnvSchema } from "@/lib/env/schema";
import { capturedLog } from "@/tests/support/captured-log";
import { metricsRoute, type MetricsRouteDependencies } from "./route";

// Who is answered by /api/metrics, and that a console database that does not answer never fails the scrape. The
// metrics themselves, over a real database and a real sandbox bank: stored-gauges.test.ts and recording.test.ts.

const token = "metrics-token-for-the-route-test-0123456789";
const databaseDown = async (): Promise<ConsoleDb> => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"));

function route(overrides: Partial<MetricsRouteDependencies> = {}) {
  const { log, lines } = capturedLog("warn");
  const GET = metricsRoute({ token, trustedProxies: [], registry: new Registry(), db: databaseDown, log, ...overrides });
  return { GET, logLines: lines };
}

/** A request as the console's server passes it on: X-Forwarded-For ends with the socket's peer (lib/auth/client-address.ts). */
const scrape = (headers: HeadersInit = {}) => new Request("http://console.test/api/metrics", { headers });

describe("/api/metrics with METRICS_TOKEN set", () => {
  it("takes a token of at least 32 characters, refusing a shorter one at start with a message naming it", () => {
    expect(consoleEnvSchema.parse({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(consoleEnvSchema.parse({}).METRICS_TOKEN).toBeUndefined();
    const short = consoleEnvSchema.safeParse({ METRICS_TOKEN: "x".repeat(31) });
    expect(short.error?.issues).toEqual([expect.objectContaining({ path: ["METRICS_TOKEN"], message: "expected at least 32 characters" })]);
  });

  it("answers 401 in the console's error shape when no bearer token is sent, even from this machine", async () => {
    const { GET } = route();
    const basic = `Basic ${Buffer.from(`x:${token}`).toString("base64")}`;
    for (const headers of [{ "x-forwarded-for": "127.0.0.1" }, { authorization: basic }] as HeadersInit[]) {
      const response = await GET(scrape(headers));
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.json()).toEqual({ error: { code: "unauthorized", message: expect.stringContaining("Bearer <METRICS_TOKEN>") } });
    }
  });

  it("answers 403 to a wrong token, one differing in its last character or its length alike", async () => {
    const { GET } = route();
    for (const wrong of [`${token.slice(0, -1)}X`, `${token}0`, "short"]) {
      const response = await GET(scrape({ authorization: `Bearer ${wrong}`, "x-forwarded-for": "127.0.0.1" }));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: "forbidden", message: "The metrics token is not valid." } });
    }
  });

  it("answers the right token from any address in Prometheus's text format, never stored", async () => {
    const { GET } = route();
    const response = await GET(scrape({ authorization: `Bearer ${token}`, "x-forwarded-for": "192.0.2.10" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("/api/metrics with METRICS_TOKEN unset", () => {
  it.each(["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])("answers a request from the loopback address %s", async (address) => {
    const { GET } = route({ token: undefined });
    expect((await GET(scrape({ "x-forwarded-for": address }))).status).toBe(200);
  });

  it("answers 403 to any other address, a forged X-Forwarded-For, or a request whose address is unknown", async () => {
    const { GET } = route({ token: undefined });
    // The console's server appends the peer: a client that sends "127.0.0.1" itself arrives as "127.0.0.1, <peer>".
    for (const headers of [{ "x-forwarded-for": "192.0.2.10" }, { "x-forwarded-for": "127.0.0.1, 192.0.2.10" }, {}]) {
      const response = await GET(scrape({ ...headers, authorization: `Bearer ${token}` } as HeadersInit));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.stringContaining("METRICS_TOKEN is not set") } });
    }
  });

  it("believes a loopback client behind a proxy named in TRUSTED_PROXIES, and only then", async () => {
    const proxied = scrape({ "x-forwarded-for": "127.0.0.1, 10.0.0.5" });
    expect((await route({ token: undefined, trustedProxies: ["10.0.0.5"] }).GET(proxied)).status).toBe(200);
    expect((await route({ token: undefined }).GET(proxied.clone())).status).toBe(403);
  });
});

describe("/api/metrics when the console's database does not answer", () => {
  it("still answers 200 with what it has, each stored group marked down and logged", async () => {
    const { GET, logLines } = route();
    const text = await (await GET(scrape({ authorization: `Bearer ${token}` }))).text();
    for (const source of ["index", "approvals", "reviews"]) expect(text).toContain(`console_metrics_source_up{source="${source}"} 0`);
    expect(text).not.toContain("console_index_inbox_depth{");
    expect(logLines()).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 40, source: "index", msg: "metrics: a stored gauge could not be read" })]),
    );
  });

  it("gives up on a database that hangs after the read timeout instead of hanging the scrape", async () => {
    const { GET } = route({ db: () => new Promise<ConsoleDb>(() => {}), storedReadTimeoutMs: 50 });
    const started = performance.now();
    const response = await GET(scrape({ authorization: `Bearer ${token}` }));
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await response.text()).toContain('console_metrics_source_up{source="approvals"} 0');
  });
});
