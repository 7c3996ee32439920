import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { StaffUser } from "@/lib/auth/staff-user";
import { BankRejectedError } from "@/lib/bank/errors";
import { createLogger } from "@/lib/log";
import { ConsoleError } from "./errors";
import { sendBankRequest } from "@/lib/bank/transport";
import { capturedLog } from "@/tests/support/captured-log";
import { answerJson, startLocalServer } from "@/tests/support/local-server";
import { rateLimitRules, resetRateLimits } from "./rate-limit";
import { createApiRoute, maxBodyBytes } from "./route";

// The wrapper on its own (the bank proxy's tests cover it with the bank behind it).

const operations: StaffUser = { id: "stf_ops", email: "ops@demo.bank", name: "Ops", role: "operations", locked: false };

function wrapperWithLog() {
  const { log, lines } = capturedLog();
  return { apiRoute: createApiRoute({ currentUser: async () => operations, log }), logLines: lines };
}

describe("createApiRoute", () => {
  it("answers an unexpected error with a 500 carrying only the request id, and logs the error with its stack", async () => {
    const { apiRoute, logLines } = wrapperWithLog();
    const handler = apiRoute({
      permission: "bank:read",
      handle: async () => {
        throw new Error("connection to postgres://console:pw@db failed");
      },
    });
    const response = await handler(new Request("http://console.test/api/thing"));
    const requestId = response.headers.get("x-request-id")!;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: "internal_error", message: `Something went wrong in the console. Quote request id ${requestId} to an admin.` },
    });
    const [errorLine, requestLine] = logLines();
    expect(errorLine).toMatchObject({
      requestId,
      err: { message: expect.stringContaining("postgres://"), stack: expect.stringContaining("route.test.ts") },
    });
    expect(requestLine).toMatchObject({ requestId, method: "GET", path: "/api/thing", status: 500, userId: "stf_ops" });
  });

  it.each([
    ["a success", async () => ({ ok: true })],
    ["a refusal", async () => Promise.reject(new ConsoleError(409, "conflict", "Already done."))],
  ])("marks %s as data that is never stored or framed, and HSTS only over https", async (_case, handle) => {
    const { apiRoute } = wrapperWithLog();
    const handler = apiRoute({ permission: "bank:read", handle });
    const plain = await handler(new Request("http://console.test/api/thing"));
    expect(plain.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(plain.headers.get("cache-control")).toBe("no-store");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const forwarded = await handler(new Request("http://console.test/api/thing", { headers: { "x-forwarded-proto": "https" } }));
    expect(forwarded.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("answers a ConsoleError thrown by a handler with its own status and code", async () => {
    const { apiRoute } = wrapperWithLog();
    const handler = apiRoute({ permission: "bank:read", handle: async () => Promise.reject(new ConsoleError(409, "conflict", "Already done.")) });
    const response = await handler(new Request("http://console.test/api/thing"));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: "conflict", message: "Already done." } });
  });

  it("validates the query and refuses a parameter given twice", async () => {
    const { apiRoute } = wrapperWithLog();
    const handler = apiRoute({
      permission: "bank:read",
      query: z.strictObject({ limit: z.coerce.number().int().max(50, "limit must be at most 50") }),
      handle: async ({ query }) => query,
    });
    const ok = await handler(new Request("http://console.test/api/thing?limit=5"));
    expect(await ok.json()).toEqual({ limit: 5 });
    const tooBig = await handler(new Request("http://console.test/api/thing?limit=500"));
    expect(await tooBig.json()).toEqual({ error: { code: "invalid_input", message: "Invalid query: limit: limit must be at most 50" } });
    const twice = await handler(new Request("http://console.test/api/thing?limit=5&limit=6"));
    expect(await twice.json()).toEqual({ error: { code: "invalid_input", message: "Invalid query: limit is given more than once" } });
  });

  it("checks the permission before reading the input", async () => {
    const { apiRoute } = wrapperWithLog();
    const handler = apiRoute({ permission: "staff:manage", body: z.strictObject({ name: z.string() }), handle: async () => "never" });
    const response = await handler(
      new Request("http://console.test/api/staff", { method: "POST", body: "{broken", headers: { origin: "http://console.test" } }),
    );
    expect(response.status).toBe(403);
  });

  it("refuses a body above the size limit before parsing it", async () => {
    const { apiRoute } = wrapperWithLog();
    const handler = apiRoute({ permission: "bank:read", body: z.unknown(), handle: async () => "never" });
    const body = JSON.stringify({ padding: "x".repeat(maxBodyBytes) });
    const response = await handler(
      new Request("http://console.test/api/thing", { method: "POST", body, headers: { origin: "http://console.test" } }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "payload_too_large" } });
  });

  it("refuses every read another site's page started, before the handler runs (audited searches, downloads)", async () => {
    const { apiRoute } = wrapperWithLog();
    let handled = 0;
    const read = apiRoute({
      permission: "bank:read",
      handle: async () => {
        handled++;
        return { read: true };
      },
    });
    const from = (site?: string, method = "GET") =>
      read(new Request("http://console.test/api/search?q=x", { method, headers: site ? { "sec-fetch-site": site } : {} }));
    for (const site of ["cross-site", "same-site"]) {
      for (const method of ["GET", "HEAD"]) {
        const refused = await from(site, method);
        expect(refused.status).toBe(403);
        if (method === "GET")
          expect(await refused.json()).toEqual({
            error: { code: "cross_site", message: `The console's API answers only the console's own pages (Sec-Fetch-Site is ${site}).` },
          });
      }
    }
    expect(handled).toBe(0);
    for (const site of ["same-origin", "none", undefined]) expect((await from(site)).status, String(site)).toBe(200);
    expect(handled).toBe(3);
  });

  it("maps a bank failure to the console's shape and logs it in one line without a stack", async () => {
    const { apiRoute, logLines } = wrapperWithLog();
    const call = { operation: "get_ach", method: "GET", path: "/ach/ach_1", attempts: 1 };
    const handler = apiRoute({
      permission: "bank:read",
      handle: async () => Promise.reject(new BankRejectedError(call, 409, "Transfer already sent")),
    });
    const response = await handler(new Request("http://console.test/api/bank/ach/ach_1"));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: "bank_rejected", message: "Transfer already sent" } });
    const [bankLine] = logLines();
    expect(bankLine).toMatchObject({ msg: "bank call failed", bank: { kind: "rejected", operation: "get_ach", status: 409, attempts: 1 } });
    expect(JSON.stringify(bankLine)).not.toContain("stack");
  });

  it("names the request id on every line logged while serving it, also by a logger made before the request (a retried bank call)", async () => {
    const { apiRoute, logLines } = wrapperWithLog();
    // The transport's logger is made once per bank environment, long before any request; it knows no request id.
    const transportLog = capturedLog();
    const bank = await startLocalServer((_request, response, index) =>
      index === 0 ? answerJson(response, 503, { error: "busy" }) : answerJson(response, 200, { data: [] }),
    );
    try {
      const target = { baseUrl: bank.url, auth: { type: "bearer" as const, token: "t" } };
      const options = { timeoutMs: 1_000, retries: 1, retryBaseMs: 1, retryMaxMs: 1, log: transportLog.log };
      const handler = apiRoute({
        permission: "bank:read",
        handle: async () => (await sendBankRequest(target, { operation: "listAch", method: "GET", path: "/ach" }, options)).body,
      });
      const response = await handler(new Request("http://console.test/api/bank/ach"));
      expect(response.status).toBe(200);
      const requestId = response.headers.get("x-request-id");
      expect(transportLog.lines()).toEqual([expect.objectContaining({ msg: "bank call failed; retrying", requestId })]);
      // The request's own lines carry it once, from their child logger.
      const [requestLine] = logLines();
      expect(requestLine).toMatchObject({ msg: "api request", requestId });
    } finally {
      await bank.close();
    }
    transportLog.log.info("after the request");
    expect(transportLog.lines()[1]).not.toHaveProperty("requestId");
  });

  it("answers 429 with Retry-After once a user has spent a route's rate limit, before the handler runs, and counts each user apart", async () => {
    resetRateLimits();
    let handled = 0;
    const limited = (user: StaffUser) =>
      createApiRoute({ currentUser: async () => user, log: createLogger({ level: "silent" }) })({
        permission: "bank:read",
        rateLimit: "search",
        handle: async () => ({ handled: ++handled }),
      });
    const asOperations = limited(operations);
    const allowance = rateLimitRules.search.points;
    for (let call = 0; call < allowance; call++) expect((await asOperations(new Request("http://console.test/api/search"))).status).toBe(200);
    const refused = await asOperations(new Request("http://console.test/api/search"));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect(handled).toBe(allowance);
    const another = limited({ ...operations, id: "stf_other" });
    expect((await another(new Request("http://console.test/api/search"))).status).toBe(200);
    resetRateLimits();
  });
});
