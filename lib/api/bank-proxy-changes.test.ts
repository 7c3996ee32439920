import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findOperation } from "@/lib/bank/client";
import { dpopProof } from "@/tests/support/dpop-proof";
import { testDatabaseTargets } from "@/tests/support/databases";
import { exposedOperations } from "./bank-allowlist";
import { proxyHarness, staff, startProxyBank } from "@/tests/support/proxy-harness";
import { eventually } from "@/tests/support/webhook-receiver";

// Changes through the bank proxy (tests/support/proxy-harness.ts: the real sandbox bank behind a recording
// hop, a real audit trail on every database target): each audited operation's success, failure and refusal, bad input
// that never reaches the bank, and the checks every change passes first (origin, environment, role).

const bank = startProxyBank();

const newWebhook = () => bank.direct.create_webhook({ url: `https://hooks.example/${randomUUID()}`, event: "ach.update" });

/** A webhook with one notification already tried (its own webhook.update, to a port nothing listens on): what a resend sends again. */
async function triedNotification() {
  const hook = await bank.direct.create_webhook({ url: "http://127.0.0.1:9/hooks", event: "webhook.update" });
  await bank.direct.patch_webhook(hook.id, { userdata: { touched: true } });
  const attempt = await eventually(async () => (await bank.direct.list_webhook_deliveries(hook.id, { page_size: 1 })).data[0]);
  return { hook, notificationId: attempt.notification_id };
}

/** One audited bank mutation: how to make a valid request of it, and what the audit record's target and before are. */
interface Mutation {
  action: string;
  method: "POST" | "PATCH" | "DELETE";
  status: number;
  /** The bank requests one call of it sends, in order (to its own path, unless `prepare` names `readPath` for the GET). */
  sends: string[];
  prepare(): Promise<{ path: string; readPath?: string; body?: object; target: string | null; before: unknown; readBack?: () => Promise<unknown> }>;
}

const mutations: Mutation[] = [
  {
    action: "network_transfer.userdata.update",
    method: "PATCH",
    status: 200,
    sends: ["GET", "PATCH"],
    prepare: async () => ({
      path: `/network_transfer/${bank.seed.networkTransfer}`,
      body: { userdata: { ticket: randomUUID() } },
      target: bank.seed.networkTransfer,
      before: await bank.direct.get_network_transfer(bank.seed.networkTransfer),
      readBack: () => bank.direct.get_network_transfer(bank.seed.networkTransfer),
    }),
  },
  {
    action: "card.uxt_access_token.create",
    method: "POST",
    status: 200,
    sends: ["POST"],
    prepare: async () => ({
      path: `/card/${bank.seed.card}/uxt_access_token`,
      body: { dpop: await dpopProof(`${bank.recording.url}/card/${bank.seed.card}/uxt_access_token`) },
      target: bank.seed.card,
      before: null,
    }),
  },
  {
    action: "simulation.run",
    method: "POST",
    status: 202,
    sends: ["POST"],
    prepare: async () => ({
      path: "/simulation",
      body: { type: "digital_wallet_token.provisioning", simulation: { card_id: bank.seed.card } },
      target: bank.seed.card,
      before: null,
      readBack: async () => (await bank.direct.list_digital_wallet_token({ card_id: bank.seed.card, page_size: 100 })).data.length,
    }),
  },
  {
    action: "webhook.create",
    method: "POST",
    status: 201,
    sends: ["POST"],
    prepare: async () => {
      const url = `https://hooks.example/${randomUUID()}`;
      return {
        path: "/webhook",
        body: { url, event: "ach.update" },
        target: null,
        before: null,
        readBack: async () => (await bank.direct.list_webhook({ page_size: 100 })).data.filter((hook) => hook.url === url),
      };
    },
  },
  {
    action: "webhook.update",
    method: "PATCH",
    status: 200,
    sends: ["GET", "PATCH"],
    prepare: async () => {
      const hook = await newWebhook();
      return {
        path: `/webhook/${hook.id}`,
        body: { status: "disabled" },
        target: hook.id,
        before: hook,
        readBack: () => bank.direct.get_webhook(hook.id),
      };
    },
  },
  {
    action: "webhook.delete",
    method: "DELETE",
    status: 204,
    sends: ["GET", "DELETE"],
    prepare: async () => {
      const hook = await newWebhook();
      return { path: `/webhook/${hook.id}`, target: hook.id, before: hook, readBack: () => bank.direct.get_webhook(hook.id) };
    },
  },
  {
    action: "webhook.notification.resend",
    method: "POST",
    status: 201,
    sends: ["POST"],
    prepare: async () => {
      const { hook, notificationId } = await triedNotification();
      return { path: `/webhook/${hook.id}/notifications/${notificationId}/resend`, target: hook.id, before: null };
    },
  },
  {
    action: "webhook.test",
    method: "POST",
    status: 201,
    sends: ["GET", "POST"],
    prepare: async () => {
      const hook = await bank.direct.create_webhook({ url: "http://127.0.0.1:9/hooks", event: "ach.update" });
      return { path: `/webhook/${hook.id}/test`, readPath: `/webhook/${hook.id}`, target: hook.id, before: hook };
    },
  },
];

/** Bad input for every mutating route, and the field its 400 must name. */
const badInputs: Array<{ method: string; path: string; body?: string | object; field: string }> = [
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: "not an object" }, field: "userdata" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: {}, amount: "1.00" }, field: "amount" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: { note: "x".repeat(2000) } }, field: "userdata" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: "{not json", field: "JSON" },
  { method: "PATCH", path: `/network_transfer/${"n".repeat(101)}`, body: { userdata: {} }, field: "id" },
  { method: "POST", path: "/card/card_1/uxt_access_token", body: {}, field: "dpop" },
  { method: "POST", path: "/card/card_1/uxt_access_token", body: "dpop=x", field: "JSON" },
  { method: "POST", path: "/simulation", body: { type: "digital_wallet_token.provisioning", simulation: {} }, field: "card_id" },
  { method: "POST", path: "/simulation", body: { type: "card.explode", simulation: { card_id: "card_1" } }, field: "type" },
  { method: "POST", path: "/simulation", body: "[1, 2", field: "JSON" },
  {
    method: "POST",
    path: "/simulation",
    body: { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_1", fulfillment: { status: "maybe" } } },
    field: "simulation.fulfillment.status",
  },
  { method: "POST", path: "/webhook", body: { url: "not a url", event: "ach.update" }, field: "url" },
  { method: "POST", path: `/webhook/webhook_1/notifications/${"d".repeat(101)}/resend`, field: "notification_id" },
  { method: "POST", path: `/webhook/${"w".repeat(101)}/test`, field: "id" },
  { method: "POST", path: "/webhook", body: { url: "https://hooks.example/x", event: "ach.exploded" }, field: "event" },
  { method: "PATCH", path: "/webhook/webhook_1", body: { status: "error" }, field: "status" },
  { method: "PATCH", path: "/webhook/webhook_1", body: { url: "ftp:/nowhere" }, field: "url" },
  { method: "DELETE", path: `/webhook/${"w".repeat(101)}`, field: "id" },
];

describe.each(testDatabaseTargets)("changes through the bank proxy, audit trail on $name", (target) => {
  const harness = proxyHarness(bank, target);
  const { session, callProxy, allAuditRecords, recordsOf, sentToBank, expectedRecord } = harness;

  describe.each(badInputs)("$method $path with bad input naming $field", ({ method, path: bankPath, body, field }) => {
    it("answers 400 naming the field, sends nothing to the bank and writes no audit record", async () => {
      const before = (await allAuditRecords()).length;
      const response = await callProxy(method, bankPath, { body });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: { code: expect.stringMatching(/^invalid_/), message: expect.stringContaining(field) } });
      expect(bank.recording.received).toEqual([]);
      expect(await allAuditRecords()).toHaveLength(before);
    });
  });

  it("has a bad-input case for every mutating operation it exposes", () => {
    const mutating = exposedOperations.map((exposed) => findOperation(exposed.operationId)).filter((operation) => operation.method !== "get");
    for (const operation of mutating) {
      const pattern = new RegExp(`^${operation.path.replace(/\{[a-z_]+\}/g, "[^/]+")}$`);
      const covered = badInputs.some((input) => input.method === operation.method.toUpperCase() && pattern.test(input.path));
      expect(covered, `${operation.method.toUpperCase()} ${operation.path}`).toBe(true);
    }
  });

  it("has a success and a failure case for every audited operation it exposes", () => {
    const audited = exposedOperations.flatMap((exposed) => (exposed.audit ? [exposed.audit.action] : []));
    expect(mutations.map((mutation) => mutation.action).sort()).toEqual(audited.sort());
  });

  describe.each(mutations)("the audited change $action", (mutation) => {
    it(`answers ${mutation.status}, sends the change to the bank once and records actor, target, before, after and success`, async () => {
      const request = await mutation.prepare();
      const countBefore = await request.readBack?.();
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status, response.text).toBe(mutation.status);
      expect(sentToBank()).toEqual(
        mutation.sends.map((method) => `${method} ${method === "GET" ? (request.readPath ?? request.path) : request.path}`),
      );
      const answer = response.json ?? null;
      const state = await request.readBack?.().catch((error: unknown) => error);
      // What the audit trail keeps of the bank's answer: all of it, except a card toolkit token (a credential). The
      // userdata editor is answered only what it needs, so the record holds the transfer the bank answered.
      const bankAnswer = (mutation.action === "network_transfer.userdata.update" ? state : answer) as Record<string, unknown> | null;
      const after = bankAnswer && "access_token" in bankAnswer ? { ...(bankAnswer as object), access_token: "[not recorded]" } : bankAnswer;
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, {
          action: mutation.action,
          targetId: request.target,
          before: request.before,
          after,
          outcome: "succeeded",
          error: null,
        }),
      ]);
      switch (mutation.action) {
        case "network_transfer.userdata.update": {
          const transfer = state as { userdata: unknown; updated_at: string };
          expect(answer).toEqual({ userdata: (request.body as { userdata: unknown }).userdata, updated_at: transfer.updated_at });
          expect(transfer.userdata).toEqual((request.body as { userdata: unknown }).userdata);
          break;
        }
        case "webhook.update":
          expect(state).toEqual(answer);
          expect(answer).toMatchObject(request.body!);
          break;
        case "webhook.create":
          expect(state).toEqual([answer]);
          break;
        case "webhook.delete":
          expect(state).toMatchObject({ kind: "rejected", status: 404 });
          break;
        case "simulation.run":
          expect(state).toBe((countBefore as number) + 1);
          break;
        case "webhook.notification.resend":
          expect(answer).toMatchObject({ notification_id: request.path.split("/")[4], attempt: expect.any(Number), succeeded: false });
          break;
        case "webhook.test":
          expect(answer).toMatchObject({ event: "webhook.test", op: "test", object_id: request.target, attempt: 1, succeeded: false });
          break;
        case "card.uxt_access_token.create":
          expect(answer).toMatchObject({ token_type: "DPoP", expires_in: 3600, access_token: expect.stringMatching(/^ey/) });
          expect(JSON.stringify(await allAuditRecords())).not.toContain(String(answer!.access_token));
          break;
        default:
          throw new Error(`no check of the bank's state after ${mutation.action}`);
      }
    });

    it("records the failure, with its reason, when the bank fails the change", async () => {
      const request = await mutation.prepare();
      const stateBefore = await request.readBack?.();
      bank.recording.failNext(mutation.method, request.path, 503);
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status).toBe(503);
      expect(response.json).toEqual({
        error: { code: "bank_unavailable", message: "The bank is unavailable (HTTP 503): injected failure: the bank is unavailable" },
      });
      expect(sentToBank()).toEqual(
        mutation.sends.map((method) => `${method} ${method === "GET" ? (request.readPath ?? request.path) : request.path}`),
      );
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, {
          action: mutation.action,
          targetId: request.target,
          before: request.before,
          after: null,
          outcome: "failed",
          error: expect.stringContaining("503"),
        }),
      ]);
      expect(await request.readBack?.()).toEqual(stateBefore);
    });

    it("is not performed when its audit record cannot be written", async () => {
      const request = await mutation.prepare();
      const stateBefore = await request.readBack?.();
      await harness.breakAuditTrail();
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status).toBe(500);
      expect(response.json).toEqual({ error: { code: "internal_error", message: expect.stringContaining("request id") } });
      // Only the read of the state before (when there is one) reached the bank, never the change.
      expect(sentToBank()).toEqual(
        mutation.sends.filter((method) => method === "GET").map((method) => `${method} ${request.readPath ?? request.path}`),
      );
      expect(await request.readBack?.()).toEqual(stateBefore);
    });

    it.each(["viewer", "compliance"] as const)("is refused to a %s with 403: nothing reaches the bank, nothing is recorded", async (role) => {
      session.user = staff(role);
      const request = await mutation.prepare();
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
      expect(bank.recording.received).toEqual([]);
      expect(await recordsOf(response)).toEqual([]);
    });
  });

  it("records the bank's own refusal of a simulation as a failure with the bank's reason", async () => {
    const body = {
      type: "digital_wallet_token.provisioning",
      simulation: { card_id: bank.seed.card, token_service_provider: { token_requestor_name: "APPLE_PAY", token_requestor_id: "40010075001" } },
    };
    const response = await callProxy("POST", "/simulation", { body });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "bank_rejected", message: expect.stringContaining("does not belong to APPLE_PAY") } });
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, {
        action: "simulation.run",
        targetId: bank.seed.card,
        before: null,
        after: null,
        outcome: "failed",
        error: expect.stringContaining("does not belong to APPLE_PAY"),
      }),
    ]);
  });

  it("edits a webhook's url, event and Basic credentials: sent as given, audited with before and after, the secret recorded nowhere", async () => {
    const hook = await bank.direct.create_webhook({ url: `https://hooks.example/${randomUUID()}`, event: "ach.update", basic_user: "old-user" });
    const secret = `secret-${randomUUID()}`;
    const body = { url: `https://hooks.example/${randomUUID()}`, event: "card.create", basic_user: "new-user", basic_secret: secret };
    const response = await callProxy("PATCH", `/webhook/${hook.id}`, { body });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: hook.id, url: body.url, event: "card.create", basic_user: "new-user", basic_secret: null });
    expect(sentToBank()).toEqual([`GET /webhook/${hook.id}`, `PATCH /webhook/${hook.id}`]);
    const after = await bank.direct.get_webhook(hook.id);
    expect(after).toMatchObject({ url: body.url, event: "card.create", basic_user: "new-user" });
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, { action: "webhook.update", targetId: hook.id, before: hook, after, outcome: "succeeded", error: null }),
    ]);
    expect(JSON.stringify(await allAuditRecords())).not.toContain(secret);
  });

  it("records the bank's refusal of a webhook edit pointing at a private address, and the webhook keeps its url", async () => {
    const hook = await newWebhook();
    const response = await callProxy("PATCH", `/webhook/${hook.id}`, { body: { url: "http://10.0.0.7/hooks" } });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "bank_rejected", message: expect.stringContaining("10.0.0.7") } });
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, {
        action: "webhook.update",
        targetId: hook.id,
        before: hook,
        after: null,
        outcome: "failed",
        error: expect.stringContaining("10.0.0.7"),
      }),
    ]);
    expect((await bank.direct.get_webhook(hook.id)).url).toBe(hook.url);
  });

  it("records the bank's refusal of a card token whose DPoP proof names another URL", async () => {
    const body = { dpop: await dpopProof(`${bank.recording.url}/card/card_someone_else/uxt_access_token`) };
    const response = await callProxy("POST", `/card/${bank.seed.card}/uxt_access_token`, { body });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "bank_rejected", message: expect.stringContaining("htu") } });
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, {
        action: "card.uxt_access_token.create",
        targetId: bank.seed.card,
        before: null,
        after: null,
        outcome: "failed",
        error: expect.stringContaining("htu"),
      }),
    ]);
  });

  it("answers 404 with the bank's message for a change to an object the bank does not have, and records no change", async () => {
    const response = await callProxy("PATCH", "/webhook/webhook_missing", { body: { status: "disabled" } });
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: expect.stringContaining("webhook_missing") } });
    expect(sentToBank()).toEqual(["GET /webhook/webhook_missing"]);
    expect(await recordsOf(response)).toEqual([]);
  });

  it("refuses simulations outside the sandbox environment without calling the bank", async () => {
    session.environment = "production";
    const response = await callProxy("POST", "/simulation", {
      body: { type: "digital_wallet_token.provisioning", simulation: { card_id: bank.seed.card } },
    });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "sandbox_only" } });
    expect(bank.recording.received).toEqual([]);
  });

  it.each([
    ["from another site", "https://evil.example"],
    ["without an Origin header", null],
  ])("refuses a change %s", async (_name, origin) => {
    const response = await callProxy("PATCH", `/network_transfer/${bank.seed.networkTransfer}`, { body: { userdata: {} }, origin });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "cross_origin" } });
    expect(bank.recording.received).toEqual([]);
  });

  it("masks a change's answer by the same allowlist as a GET: a no-op transfer PATCH shows no bankdata, a webhook PATCH no userdata", async () => {
    session.user = staff("operations");
    const transferPath = `/network_transfer/${bank.seed.networkTransfer}`;
    const current = await bank.direct.get_network_transfer(bank.seed.networkTransfer);
    const patched = await callProxy("PATCH", transferPath, { body: { userdata: current.userdata ?? {} } });
    expect(patched.status).toBe(200);
    expect(Object.keys(patched.json!).sort()).toEqual(["updated_at", "userdata"]);
    expect(JSON.stringify(patched.json)).not.toContain('"bankdata"');
    const hook = await bank.direct.create_webhook({
      url: `https://hooks.example/${randomUUID()}`,
      event: "ach.update",
      userdata: { owner: "private-note" },
    });
    const changed = await callProxy("PATCH", `/webhook/${hook.id}`, { body: { status: "disabled" } });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ id: hook.id, status: "disabled", userdata: "[masked]" });
    const created = await callProxy("POST", "/webhook", {
      body: { url: `https://hooks.example/${randomUUID()}`, event: "ach.update", userdata: { owner: "private-note" } },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ userdata: "[masked]" });
  });

  it("answers a network transfer's current userdata, and only it, to the role that may edit it, uncached and audited", async () => {
    session.user = staff("operations");
    const response = await callProxy("POST", `/network_transfer/${bank.seed.networkTransfer}/userdata`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const transfer = await bank.direct.get_network_transfer(bank.seed.networkTransfer);
    expect(response.json).toEqual({ userdata: transfer.userdata, updated_at: transfer.updated_at });
    expect(await recordsOf(response)).toEqual([
      expect.objectContaining({
        action: "network_transfer.userdata.read",
        targetId: bank.seed.networkTransfer,
        role: "operations",
        outcome: "succeeded",
      }),
    ]);
  });

  it.each(["viewer", "compliance"] as const)("never answers a network transfer's userdata to %s, and the bank is not asked", async (role) => {
    session.user = staff(role);
    const response = await callProxy("POST", `/network_transfer/${bank.seed.networkTransfer}/userdata`);
    expect(response.status).toBe(403);
    expect(bank.recording.received).toEqual([]);
    expect(await recordsOf(response)).toEqual([]);
  });
});
