import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { networkTransfer, digitalWalletToken } from "@/lib/contract";
import { testDatabaseTargets } from "@/tests/support/databases";
import { signBearerToken } from "../auth/tokens";
import { events } from "../db/webhook-schema";
import { runKeysCommand } from "../keys-cli";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { insertFixtures, tables } from "@/tests/support/sandbox-fixtures";

describe.each(testDatabaseTargets)("writes, auth and errors on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const { request } = fixture;
  const eventsFor = (objectId: string) =>
    fixture.sandbox.context.db.select({ name: events.name, op: events.op }).from(events).where(eq(events.objectId, objectId));

  beforeAll(async () => {
    await insertFixtures(fixture.sandbox.context.db, 2);
    await fixture.sandbox.context.db.insert(tables.card).values({
      ...(await import("@/tests/support/sandbox-fixtures")).rows.card(9, { id: "card_fixture_red" }),
    });
  }, 120_000);

  describe("authentication", () => {
    const unauthenticated = async (authorization?: string) => {
      const response = await fetch(`${fixture.sandbox.url}/ach`, { headers: authorization ? { authorization } : {} });
      return { status: response.status, body: (await response.json()) as { error: string } };
    };
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

    it.each([
      ["no Authorization header", undefined, "Missing credentials"],
      ["a Basic value that is not base64 of id:secret", "Basic !!!", "Malformed Basic credentials"],
      ["a Basic value without a colon", `Basic ${Buffer.from("just-an-id").toString("base64")}`, "Malformed Basic"],
      ["a wrong secret", basic(demoKey.id, "wrong-secret"), "Invalid API key id or secret"],
      ["an unknown key id", basic("key_unknown", demoKey.secret), "Invalid API key id or secret"],
      ["a bearer token that is not a JWT", "Bearer not-a-jwt", "Bearer token is not valid"],
      ["an empty bearer token", "Bearer ", "Malformed Bearer"],
      ["another scheme", "Digest abc", "Unsupported authorization scheme"],
    ])("answers 401 with an error body for %s", async (_case, authorization, message) => {
      const response = await unauthenticated(authorization);
      expect(response.status).toBe(401);
      expect(response.body.error).toContain(message);
    });

    it("refuses a bearer token signed with another key, and one for a key that does not exist", async () => {
      const foreign = await signBearerToken(new TextEncoder().encode("x".repeat(32)), demoKey.id);
      expect((await unauthenticated(`Bearer ${foreign}`)).status).toBe(401);
      const orphan = await signBearerToken(fixture.sandbox.signingKey, "key_deleted");
      expect(await unauthenticated(`Bearer ${orphan}`)).toEqual({
        status: 401,
        body: { error: "Bearer token names an API key that does not exist" },
      });
    });

    it("accepts HTTP Basic and a bearer JWT signed by the sandbox for the key", async () => {
      expect((await request("/ach")).status).toBe(200);
      const token = await signBearerToken(fixture.sandbox.signingKey, demoKey.id);
      expect((await request("/ach", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    });

    it("keys create prints a key id, secret and bearer token that all work", async () => {
      const lines: string[] = [];
      expect(await runKeysCommand(["create", "ci"], { url: fixture.databaseUrl }, (line) => lines.push(line))).toBe(0);
      const value = (label: string) => lines.find((line) => line.startsWith(label))!.split(/:\s+/)[1]!;
      const [id, secret, token] = [value("key id"), value("key secret"), value("bearer token")];
      expect(id).toMatch(/^key_/);
      expect((await sandboxClient(fixture.sandbox.url, id, secret)("/card")).status).toBe(200);
      expect((await request("/card", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    });

    it("serves /health and /openapi.json without credentials (the document's rate limit: sandbox/openapi.test.ts)", async () => {
      expect((await fetch(`${fixture.sandbox.url}/health`)).status).toBe(200);
      expect((await fetch(`${fixture.sandbox.url}/openapi.json`)).status).toBe(200);
      expect((await request("/openapi.json")).status).toBe(200);
    });
  });

  describe("PATCH /network_transfer/{id}", () => {
    it("updates userdata, returns the transfer and emits network_transfer.update", async () => {
      const response = await request("/network_transfer/nt_fixture1", { method: "PATCH", json: { userdata: { ref: "A-1" } } });
      expect(response.status).toBe(200);
      const transfer = networkTransfer.parse(response.body);
      expect(transfer.userdata).toEqual({ ref: "A-1" });
      expect((await request("/network_transfer/nt_fixture1")).body).toEqual(response.body);
      expect(await eventsFor("nt_fixture1")).toEqual([{ name: "network_transfer.update", op: "update" }]);
    });

    it.each([
      [{ userdata: {}, status: "sent" }, "unknown field: status"],
      [{ amount: "1.00" }, "unknown field: amount"],
      [{}, "userdata is required"],
      [{ userdata: "text" }, "userdata must be a JSON object"],
      [{ userdata: { blob: "x".repeat(1100) } }, "userdata must be at most 1024 bytes"],
    ])("refuses %j with a 400 naming the problem, changing nothing", async (json, message) => {
      // Compared with the state before, not with an empty list: another test here PATCHes nt_fixture2 successfully.
      const [transferBefore, eventsBefore] = [(await request("/network_transfer/nt_fixture2")).body, await eventsFor("nt_fixture2")];
      const response = await request("/network_transfer/nt_fixture2", { method: "PATCH", json });
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toContain(message);
      expect(await eventsFor("nt_fixture2")).toEqual(eventsBefore);
      expect((await request("/network_transfer/nt_fixture2")).body).toEqual(transferBefore);
    });

    it("answers 404 for an unknown transfer", async () => {
      expect((await request("/network_transfer/nt_nope", { method: "PATCH", json: { userdata: {} } })).status).toBe(404);
    });

    it("answers 415 for a body that is not declared JSON, 400 for malformed JSON, 413 for a huge body", async () => {
      const raw = (body: string, contentType?: string) =>
        request("/network_transfer/nt_fixture2", { method: "PATCH", body, headers: contentType ? { "content-type": contentType } : {} });
      expect((await raw('{"userdata":{}}', "text/plain")).status).toBe(415);
      expect((await raw('{"userdata":{}}')).status).toBe(415);
      const malformed = await raw('{"userdata":', "application/json");
      expect(malformed.status).toBe(400);
      expect((malformed.body as { error: string }).error).toMatch(/^Malformed JSON body/);
      expect((await raw(JSON.stringify({ userdata: { a: "x".repeat(70_000) } }), "application/json")).status).toBe(413);
      expect((await raw('{"userdata":{}}', "application/json; charset=utf-8")).status).toBe(200);
    });
  });

  describe("bad input on the webhook reads and the other writes", () => {
    const allEvents = () => fixture.sandbox.context.db.select({ id: events.id }).from(events);
    const send = (method: string, path: string, body: string, contentType = "application/json") =>
      request(path, { method, body, headers: { "content-type": contentType } });
    let webhookId: string;

    beforeAll(async () => {
      const created = await request("/webhook", { method: "POST", json: { url: "https://hooks.example/bad-input", event: "ach.update" } });
      webhookId = (created.body as { id: string }).id;
    });

    it.each([
      { path: () => "/webhook?page_size=0", names: "page_size" },
      { path: () => "/webhook?colour=red", names: "colour" },
      { path: () => "/webhook?status=exploded", names: "status" },
      { path: () => `/webhook/${webhookId}/deliveries?page_size=0`, names: "page_size" },
      { path: () => `/webhook/${webhookId}/deliveries?colour=red`, names: "colour" },
    ])("GET $path answers 400 naming $names", async ({ path, names }) => {
      const response = await request(path());
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toContain(names);
    });

    it.each([
      {
        what: "PATCH /webhook/{id} with a URL that is not one",
        method: "PATCH",
        path: () => `/webhook/${webhookId}`,
        body: '{"url":"not a url"}',
        status: 400,
        names: "url",
      },
      {
        what: "POST /simulation with a body not declared JSON",
        method: "POST",
        path: () => "/simulation",
        body: "type=x",
        contentType: "text/plain",
        status: 415,
        names: "",
      },
      {
        what: "POST /simulation with malformed JSON",
        method: "POST",
        path: () => "/simulation",
        body: '{"type":',
        status: 400,
        names: "Malformed JSON",
      },
      { what: "POST /simulation with a JSON array", method: "POST", path: () => "/simulation", body: "[]", status: 400, names: "" },
      {
        what: "POST /simulation without a card id",
        method: "POST",
        path: () => "/simulation",
        body: '{"type":"digital_wallet_token.provisioning","simulation":{}}',
        status: 400,
        names: "card_id",
      },
      {
        what: "POST /card/{id}/uxt_access_token with a body not declared JSON",
        method: "POST",
        path: () => "/card/card_fixture1/uxt_access_token",
        body: "dpop=x",
        contentType: "text/plain",
        status: 415,
        names: "",
      },
      {
        what: "POST /card/{id}/uxt_access_token with malformed JSON",
        method: "POST",
        path: () => "/card/card_fixture1/uxt_access_token",
        body: '{"dpop"',
        status: 400,
        names: "Malformed JSON",
      },
      {
        what: "POST /card/{id}/uxt_access_token without a proof",
        method: "POST",
        path: () => "/card/card_fixture1/uxt_access_token",
        body: "{}",
        status: 400,
        names: "dpop",
      },
    ])("$what: answered $status, nothing changes", async ({ method, path, body, contentType, status, names }) => {
      const before = (await allEvents()).length;
      const hookBefore = (await request(`/webhook/${webhookId}`)).body;
      const response = await send(method, path(), body, contentType);
      expect(response.status).toBe(status);
      expect((response.body as { error: string }).error).toContain(names);
      expect(await allEvents()).toHaveLength(before);
      expect((await request(`/webhook/${webhookId}`)).body).toEqual(hookBefore);
    });
  });

  describe("methods and paths", () => {
    it("answers 405 with Allow for a wrong method on a known path, 404 for an unknown path", async () => {
      const wrong = await request("/ach/ach_fixture001", { method: "DELETE" });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("GET");
      expect((await request("/network_transfer/x", { method: "PUT" })).headers.get("allow")).toBe("GET, PATCH");
      expect((await request("/simulation")).status).toBe(405);
      const unknown = await request("/transfers");
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: "No such path: /transfers" });
    });
  });

  describe("POST /simulation", () => {
    const simulate = (json: unknown) => request("/simulation", { method: "POST", json });
    const tokensOf = async (cardId: string) =>
      ((await request(`/digital_wallet_token?card_id=${cardId}&page_size=1000`)).body as { data: unknown[] }).data.map((t) =>
        digitalWalletToken.parse(t),
      );

    it("provisions a token: 202 with no body, a dwt_ token and a digital_wallet_token.create event", async () => {
      const response = await simulate({ type: "digital_wallet_token.provisioning", simulation: { card_id: "card_fixture2" } });
      expect(response.status).toBe(202);
      expect(response.text).toBe("");
      const [token] = await tokensOf("card_fixture2");
      expect(token).toMatchObject({ status: "active", fulfillment_status: "provisioned", token_requestor_name: "APPLE_PAY" });
      expect(token!.id).toMatch(/^dwt_/);
      expect(await eventsFor(token!.id)).toEqual([{ name: "digital_wallet_token.create", op: "create" }]);
    });

    it.each([
      ["decision_green", "approved"],
      ["decision_yellow", "pending_verification"],
      ["decision_red", "declined"],
      ["rejected", "rejected"],
      ["provisioned", "active"],
    ])("maps fulfillment status %s to token status %s", async (fulfillment, status) => {
      const cardId = "card_fixture1";
      const before = (await tokensOf(cardId)).length;
      const response = await simulate({
        type: "digital_wallet_token.provisioning",
        simulation: { card_id: cardId, fulfillment: { status: fulfillment }, token_service_provider: { token_requestor_name: "GOOGLE_PAY" } },
      });
      expect(response.status).toBe(202);
      const tokens = await tokensOf(cardId);
      expect(tokens).toHaveLength(before + 1);
      expect(tokens[0]).toMatchObject({ status, fulfillment_status: fulfillment, token_requestor_id: "40010075001" });
    });

    it("takes the third documented requestor id, and a card id's magic suffix forces its fulfillment", async () => {
      await simulate({
        type: "digital_wallet_token.provisioning",
        simulation: { card_id: "card_fixture_red", token_service_provider: { token_requestor_id: "40010043095" } },
      });
      expect((await tokensOf("card_fixture_red"))[0]).toMatchObject({
        token_requestor_name: "SAMSUNG_PAY",
        fulfillment_status: "decision_red",
        status: "declined",
      });
    });

    it.each([
      [{ type: "ach.return", simulation: {} }, "Simulation not implemented for ach.return"],
      [{ type: "digital_wallet_token.provisioning", simulation: {} }, "simulation.card_id is required"],
      [{ type: "digital_wallet_token.provisioning", simulation: { card_id: "card_nope" } }, "simulation.card_id card_nope is not the id of a card"],
      [
        { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_fixture1", fulfillment: { status: "maybe" } } },
        "simulation.fulfillment.status must be one of",
      ],
      [
        {
          type: "digital_wallet_token.provisioning",
          simulation: { card_id: "card_fixture1", token_service_provider: { token_requestor_name: "APPLE_PAY", token_requestor_id: "40010075001" } },
        },
        "does not belong to APPLE_PAY",
      ],
      [{ simulation: {} }, "type is required"],
      [{ type: "digital_wallet_token.provisioning" }, "simulation must be an object"],
    ])("answers 400 for %j", async (json, message) => {
      const response = await simulate(json);
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toContain(message);
    });
  });
});
