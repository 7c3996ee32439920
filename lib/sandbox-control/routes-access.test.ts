import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/tests/support/databases";
import { expectDocumentedAnswer, fuzzComponent, fuzzParameters, fuzzSeeds } from "@/tests/support/fuzz";
import { byPermission, routes, sandboxRoutesHarness, staff } from "@/tests/support/sandbox-routes";
import { snapshotMaxBytes } from "./routes";
import { movableResources as movable } from "./schemas";

// Who may call the console's sandbox routes, what input they refuse, and what they answer when the bank cannot help.

describe.each(testDatabaseTargets)("the console's sandbox routes: access and input on $name", (target) => {
  const { session, call, bank, recordsOf, newAch, startQuietBank } = sandboxRoutesHarness(target);

  describe("who may call what", () => {
    it.each(routes)("$method $path: 401 signed out, nothing sent", async (route) => {
      session.user = null;
      const answer = await call(route.method, route.path, route.body);
      expect(answer.status).toBe(401);
      expect(answer.json.error?.code).toBe("unauthorized");
    });

    it.each([...byPermission("sandbox:control"), ...byPermission("sandbox:reset")])("$method $path: 403 for viewer", async (route) => {
      session.user = staff("viewer");
      expect((await call(route.method, route.path, route.body)).status).toBe(403);
    });

    it.each(byPermission("sandbox:reset"))(
      "$method $path: 403 for operations (admin only: the snapshot holds every object unmasked)",
      async (route) => {
        session.user = staff("operations");
        expect(await call(route.method, route.path, route.body)).toMatchObject({ status: 403, json: { error: { code: "forbidden" } } });
      },
    );

    it.each(byPermission("bank:read"))("$method $path: a read every role may make, a viewer included", async (route) => {
      session.user = staff("viewer");
      expect([200, 404]).toContain((await call(route.method, route.path, route.body)).status);
    });

    it.each(routes)("$method $path: 404 in the production environment, nothing sent or audited", async (route) => {
      session.environment = "production";
      const answer = await call(route.method, route.path, route.body);
      expect(answer).toMatchObject({
        status: 404,
        json: { error: { code: "not_found", message: "The sandbox controls exist only in the sandbox environment" } },
      });
      expect(await recordsOf(answer)).toEqual([]);
    });

    it.each([
      ["GET", "/reset"],
      ["POST", "/clock"],
      ["GET", "/card/card_1/transitions"],
      ["POST", "/counterparty/cp_1/transition"],
      ["POST", "/ach"],
      ["GET", "/ach/ach_1/transitions/more"],
      ["GET", "/nothing"],
      ["PATCH", "/faults/flt_1"],
    ])("%s %s: 404, no such route", async (method, path) => {
      expect(await call(method, path, method === "GET" ? undefined : {})).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
    });

    it("refuses a change from another site's page (403) before anything is sent", async () => {
      const answer = await call("POST", "/reset", { seed: "empty" }, { origin: "https://evil.example" });
      expect(answer.status).toBe(403);
      expect(await recordsOf(answer)).toEqual([]);
    });
  });

  describe("input", () => {
    it.each([
      ["POST", "/clock/advance", { by: "1 day" }, "by"],
      ["POST", "/clock/advance", {}, "by"],
      ["POST", "/clock/advance", { by: "PT1H", colour: "red" }, "colour"],
      ["POST", "/faults", {}, "match or webhooks is required"],
      ["POST", "/faults", { match: "GET /ach", status: 404 }, "status"],
      ["POST", "/faults", { match: "GET /sandbox/clock", status: 503 }, "never faulted"],
      ["POST", "/faults", { webhooks: "delay" }, "delay_ms"],
      ["POST", "/reset", { seed: "big" }, "seed"],
      ["POST", "/reset", { seed: 1.5 }, "seed"],
      ["PUT", "/snapshot", { format: "zip", version: 1, tables: {} }, "format"],
      ["PUT", "/snapshot", [], "body"],
      ["POST", "/ach/ach_1/transition", { to: "lost" }, "to must be one of"],
      ["POST", "/ach/ach_1/transition", { to: "sent", colour: "red" }, "colour"],
      ["POST", "/fednow/fednow_1/transition", {}, "to is required"],
      ["POST", "/webhook/webhook_1/transition", { to: "enabled" }, "to must be one of error, disabled"],
      ["POST", `/ach/${"a".repeat(101)}/transition`, { to: "sent" }, "id"],
      ["GET", `/ach/${"a".repeat(101)}/transitions`, undefined, "id"],
      ["DELETE", "/faults/a%00b", undefined, "id"],
    ])("%s %s %j: 400 naming %s, nothing sent", async (method, path, body, named) => {
      const answer = await call(method, path, body);
      expect(answer.status).toBe(400);
      expect(String(answer.json.error?.message)).toContain(named);
      expect(await recordsOf(answer)).toEqual([]);
    });

    it("refuses malformed JSON with a 400", async () => {
      expect((await call("POST", "/reset", "{seed:")).json.error?.code).toBe("invalid_json");
    });

    it("passes the bank's own 400 through with its message (what only the bank knows)", async () => {
      const id = await newAch();
      const unknownCode = await call("POST", `/ach/${id}/transition`, { to: "returned", error: "R99" });
      expect(unknownCode).toMatchObject({ status: 400, json: { error: { code: "invalid_input" } } });
      expect(String(unknownCode.json.error?.message)).toMatch(/^error must be an ACH return code: one of R01/);
      const zero = await call("POST", "/clock/advance", { by: "PT0S" });
      expect(zero).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("by: must be a positive duration") } } });
    });

    it("refuses a snapshot larger than its cap with a 413 naming the cap, unread", async () => {
      const answer = await call("PUT", "/snapshot", "{}", { "content-length": String(snapshotMaxBytes + 1) });
      expect(answer).toMatchObject({
        status: 413,
        json: { error: { code: "payload_too_large", message: "The request body is larger than 64 MB." } },
      });
    });

    it("keeps the 64 KB cap on every other route", async () => {
      const answer = await call("POST", "/faults", { match: "GET /ach", status: 503, seed: "x".repeat(70 * 1024) });
      expect(answer).toMatchObject({ status: 413, json: { error: { message: "The request body is larger than 64 KB." } } });
    });
  });

  describe("the bank's side", () => {
    it("says so when the sandbox bank has no control API (SANDBOX_CONTROL=off)", async () => {
      session.target = await startQuietBank();
      for (const [method, path, body] of [
        ["GET", "/clock"],
        ["POST", "/reset", { seed: "empty" }],
        ["GET", "/ach/ach_1/transitions"],
      ] as const) {
        expect(await call(method, path, body)).toMatchObject({
          status: 404,
          json: { error: { code: "not_found", message: "This sandbox bank has no control API (SANDBOX_CONTROL=off)" } },
        });
      }
    });

    it("answers the console's usual 502 when the bank cannot be reached, and 503 when the sandbox has no connection", async () => {
      session.target = { ...session.target!, baseUrl: "http://127.0.0.1:9" };
      expect(await call("GET", "/clock")).toMatchObject({ status: 502, json: { error: { code: "bank_unreachable" } } });
      expect(await call("POST", "/faults", { webhooks: "drop" })).toMatchObject({ status: 502 });
      session.target = undefined;
      expect(await call("GET", "/faults")).toMatchObject({ status: 503, json: { error: { code: "bank_not_configured" } } });
    });
  });

  describe("random and malformed requests", () => {
    const paths = [
      "/clock",
      "/clock/advance",
      "/faults",
      "/faults/{id}",
      "/reset",
      "/snapshot",
      ...movable.flatMap((resource) => [`/${resource}/{id}/transitions`, `/${resource}/{id}/transition`]),
      "/{id}",
      "/{id}/{id}/{id}/{id}",
    ];
    const fields = fc.record(
      {
        to: fc.oneof(fc.constantFrom("sent", "processing", "returned", "error", "done", "disabled"), fc.jsonValue()),
        error: fc.oneof(fc.constantFrom("R01", "R99", ""), fc.jsonValue()),
        external_status: fc.jsonValue(),
        by: fc.oneof(fc.constantFrom("PT1S", "P367D", "PT0S", "P1M"), fc.jsonValue()),
        seed: fc.oneof(fc.constantFrom(-1, 1.5, 1_000_001, "demo2"), fc.jsonValue()),
        match: fc.oneof(fc.constantFrom("GET /nothing", "* /x", "GET /sandbox/x"), fc.jsonValue()),
        status: fc.oneof(fc.constantFrom(429, 200, 503), fc.jsonValue()),
        format: fc.jsonValue(),
        tables: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const requests = fc.record({
      method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
      path: fc.constantFrom(...paths),
      id: fuzzComponent,
      body: fc.oneof(
        fields.map((body) => JSON.stringify(body)),
        fc.json({ maxDepth: 3 }),
        fc.constantFrom("{not json", "", "[]", '{"__proto__":{"a":1}}'),
      ),
    });
    const isErrorShape = (body: unknown) => {
      const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      return typeof error?.code === "string" && typeof error.message === "string";
    };

    it.each(fuzzSeeds)(
      "never a 5xx and every refusal in the console's error shape ($name)",
      async ({ seed }) => {
        session.user = staff("operations");
        await fc.assert(
          fc.asyncProperty(requests, async ({ method, path, id, body }) => {
            const answer = await call(method, path.replaceAll("{id}", id), method === "GET" ? undefined : body);
            expectDocumentedAnswer(answer, isErrorShape);
          }),
          fuzzParameters(seed, 150, 20),
        );
        // A fault the cases happened to add must not reach the tests after this one.
        await bank("DELETE", "/sandbox/faults");
      },
      60_000,
    );
  });
});
