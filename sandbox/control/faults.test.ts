import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";
import { SeededRandom } from "../seed/random";

// HTTP faults seen by a real client of a real sandbox. The faults live in the sandbox's memory, not its database, so
// one database target is enough here; the webhook faults, whose effects are stored, run on both
// (webhook-faults.test.ts).

describe("failures on demand: /sandbox/faults", () => {
  let sandbox: RunningSandbox;
  let request: ReturnType<typeof sandboxClient>;
  const addFault = async (json: Record<string, unknown>) => {
    const response = await request("/sandbox/faults", { method: "POST", json });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; times: number | null; share: number; seed: string };
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: "empty", demoKey });
    request = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
    await insertFixtures(sandbox.context.db, 2);
  }, 120_000);
  afterEach(async () => {
    expect((await request("/sandbox/faults", { method: "DELETE" })).status).toBe(204);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  describe("the routes", () => {
    it("answers 401 to every faults route without credentials", async () => {
      for (const [method, path] of [
        ["POST", "/sandbox/faults"],
        ["GET", "/sandbox/faults"],
        ["DELETE", "/sandbox/faults"],
        ["DELETE", "/sandbox/faults/flt_any"],
      ] as const) {
        const response = await fetch(`${sandbox.url}${path}`, {
          method,
          headers: { "content-type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(await response.json()).toEqual({ error: expect.stringContaining("Missing credentials") });
      }
    });

    it("stores a fault with every field answered, lists it, and removes it by id", async () => {
      const created = await request("/sandbox/faults", {
        method: "POST",
        json: { match: "GET /ach", status: 503, retry_after: 7, share: 0.5, seed: "s1", times: 3, expires_in: "PT1H" },
      });
      expect(created.status).toBe(201);
      const fault = created.body as { id: string; created_at: string };
      expect(fault.id).toMatch(/^flt_[0-9a-f]{24}$/);
      expect(fault).toEqual({
        id: fault.id,
        match: "GET /ach",
        webhooks: null,
        status: 503,
        retry_after: 7,
        latency_ms: null,
        drop: false,
        delay_ms: null,
        share: 0.5,
        seed: "s1",
        times: 3,
        expires_at: new Date(Date.parse(fault.created_at) + 3_600_000).toISOString(),
        created_at: fault.created_at,
      });
      expect(await request("/sandbox/faults")).toMatchObject({ status: 200, body: { data: [fault] } });
      expect((await request(`/sandbox/faults/${fault.id}`, { method: "DELETE" })).status).toBe(204);
      expect((await request("/sandbox/faults")).body).toEqual({ data: [] });
      expect(await request(`/sandbox/faults/${fault.id}`, { method: "DELETE" })).toMatchObject({
        status: 404,
        body: { error: `No fault ${fault.id}` },
      });
    });

    it("removes every fault at once, and defaults share to 1 and seed to the fault's id", async () => {
      const first = await addFault({ webhooks: "drop" });
      await addFault({ match: "*", latency_ms: 1 });
      expect(first).toMatchObject({ share: 1, seed: first.id, times: null, expires_at: null, match: null, webhooks: "drop" });
      expect(((await request("/sandbox/faults")).body as { data: unknown[] }).data).toHaveLength(2);
      expect(await request("/sandbox/faults", { method: "DELETE" })).toMatchObject({ status: 204, text: "" });
      expect((await request("/sandbox/faults")).body).toEqual({ data: [] });
    });

    it.each([
      [{}, "match or webhooks is required"],
      [{ match: "GET /ach", webhooks: "drop" }, "match and webhooks cannot be combined: one fault each"],
      [{ match: "/ach", status: 500 }, "match must be `*` or `<METHOD> <path>` (such as `GET /ach` or `PATCH /network_transfer/*`)"],
      [{ match: "FETCH /ach", status: 500 }, "match must be `*` or `<METHOD> <path>` (such as `GET /ach` or `PATCH /network_transfer/*`)"],
      [{ match: "GET /sandbox/faults", status: 500 }, "match: /sandbox/..., /health and /openapi.json are never faulted"],
      [{ match: "GET /ach", status: 404 }, "status must be 429, 500 or 503"],
      [{ match: "GET /ach", status: 503, share: 1.5 }, "share must be between 0 and 1"],
      [{ match: "GET /ach", status: 503, share: -0.1 }, "share must be between 0 and 1"],
      [{ match: "GET /ach", status: 503, expires_in: "an hour" }, 'expires_in: expected an ISO 8601 duration such as PT1H or P1D (got "an hour")'],
      [{ match: "GET /ach", status: 503, times: 0 }, "times must be at least 1"],
      [{ match: "GET /ach", status: 503, times: 1.5 }, "times must be a whole number"],
      [{ match: "GET /ach", latency_ms: 60_001 }, "latency_ms must be at most 60000"],
      [{ match: "GET /ach" }, "status, latency_ms or drop is required with match"],
      [{ match: "GET /ach", status: 503, drop: true }, "drop cannot be combined with status: a dropped connection has no status"],
      [{ match: "GET /ach", latency_ms: 5, retry_after: 3 }, "retry_after needs status"],
      [{ match: "GET /ach", status: 503, delay_ms: 5 }, "delay_ms is for webhooks: delay; a match fault takes latency_ms"],
      [{ webhooks: "explode" }, "webhooks must be delay, drop or duplicate"],
      [{ webhooks: "delay" }, "delay_ms is required with webhooks: delay"],
      [{ webhooks: "drop", delay_ms: 5 }, "delay_ms is only for webhooks: delay"],
      [{ webhooks: "drop", status: 500 }, "status is for match faults; a webhooks fault takes delay_ms, share, seed, times, expires_in"],
      [{ webhooks: "drop", colour: "red" }, "unknown field: colour"],
    ])("refuses %j with a 400 naming the field", async (json, error) => {
      expect(await request("/sandbox/faults", { method: "POST", json })).toMatchObject({ status: 400, body: { error } });
      expect((await request("/sandbox/faults")).body).toEqual({ data: [] });
    });
  });

  describe("an HTTP fault seen by a client", () => {
    it("answers its status with the contract's error body and Retry-After, on the matching method and path only", async () => {
      const { id } = await addFault({ match: "GET /ach", status: 503, retry_after: 7 });
      const failed = await request("/ach");
      expect(failed.status).toBe(503);
      expect(failed.body).toEqual({ error: `Service unavailable (sandbox fault ${id})` });
      expect(failed.headers.get("retry-after")).toBe("7");
      expect((await request("/ach/ach_fixture001")).status).toBe(200);
      expect((await request("/card")).status).toBe(200);
    });

    it("matches one path segment with *, and sends no Retry-After unless asked", async () => {
      const { id } = await addFault({ match: "PATCH /network_transfer/*", status: 500 });
      const failed = await request("/network_transfer/nt_fixture1", { method: "PATCH", json: { userdata: { a: 1 } } });
      expect(failed).toMatchObject({ status: 500, body: { error: `Internal error in the bank (sandbox fault ${id})` } });
      expect(failed.headers.get("retry-after")).toBeNull();
      expect((await request("/network_transfer/nt_fixture1")).status).toBe(200);
      expect((await request("/network_transfer")).status).toBe(200);
    });

    it("answers 429 to every API path with match *, but never to /sandbox/..., /health, /openapi.json or a request without credentials", async () => {
      await addFault({ match: "*", status: 429, retry_after: 1 });
      expect((await request("/ach")).status).toBe(429);
      expect((await request("/webhook")).status).toBe(429);
      expect((await request("/sandbox/faults")).status).toBe(200);
      expect((await request("/sandbox/no-such-thing")).status).toBe(404);
      expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
      expect((await fetch(`${sandbox.url}/openapi.json`)).status).toBe(200);
      expect((await fetch(`${sandbox.url}/ach`)).status).toBe(401);
    });

    it("delays the real answer by latency_ms", async () => {
      const before = await request("/card");
      await addFault({ match: "GET /card", latency_ms: 300 });
      const started = performance.now();
      const slow = await request("/card");
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
      expect(slow).toMatchObject({ status: 200, body: before.body });
    });

    it("closes the connection without an answer (drop), then answers again once its times are used", async () => {
      await addFault({ match: "GET /ach", drop: true, times: 1 });
      await expect(request("/ach")).rejects.toThrow(/fetch failed/);
      expect((await request("/ach")).status).toBe(200);
      expect((await request("/sandbox/faults")).body).toEqual({ data: [] });
    });

    it("counts times down and removes the fault at 0", async () => {
      const { id } = await addFault({ match: "GET /card", status: 500, times: 2 });
      expect((await request("/card")).status).toBe(500);
      expect((await request("/sandbox/faults")).body).toMatchObject({ data: [{ id, times: 1 }] });
      expect((await request("/card")).status).toBe(500);
      expect((await request("/sandbox/faults")).body).toEqual({ data: [] });
      expect((await request("/card")).status).toBe(200);
    });

    it("expires after expires_in", async () => {
      await addFault({ match: "GET /card", status: 503, expires_in: "PT0.3S" });
      expect((await request("/card")).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await request("/card")).status).toBe(200);
      expect((await request("/sandbox/faults")).body).toEqual({ data: [] });
    });

    it("applies to a share of matching requests, chosen by its seed: the same seed, the same requests", async () => {
      const statuses = async () => {
        await addFault({ match: "GET /card", status: 503, share: 0.3, seed: "fixed" });
        const seen: number[] = [];
        for (let i = 0; i < 200; i++) seen.push((await request("/card?page_size=1")).status);
        await request("/sandbox/faults", { method: "DELETE" });
        return seen;
      };
      const first = await statuses();
      const random = new SeededRandom("fixed");
      const expected = first.map(() => (random.next() < 0.3 ? 503 : 200));
      expect(first).toEqual(expected);
      expect(await statuses()).toEqual(first);
      const failed = first.filter((status) => status === 503).length;
      expect(failed).toBeGreaterThan(40);
      expect(failed).toBeLessThan(80);
    });
  });
});
