import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { achReturnCodes, fednowRejectReasons } from "@/lib/contract/sandbox-reason-codes";
import { webhookDeliveries } from "@/sandbox/db/webhook-schema";
import { achRules, fednowRules, networkTransferRules } from "@/sandbox/lifecycle/magic";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxWithReceiver } from "@/tests/support/sandbox-with-receiver";
import { eventually } from "@/tests/support/webhook-receiver";

type Body = Record<string, unknown> & { id: string; status: string; updated_at: string };
/** A transition asked of a fresh object: `path` moves it first (each step a transition), then `to` is asked. */
type Case = {
  fields?: Record<string, unknown>;
  path?: Array<Record<string, unknown>>;
  ask: Record<string, unknown>;
  updates: number;
  expected: Record<string, unknown>;
};

const magicError = (rules: ReadonlyArray<{ outcome: { status: string; error?: string } }>) =>
  rules.map((rule) => rule.outcome).find((outcome) => outcome.status === "error")!.error;

const achCases: Record<string, Case> = {
  "pending → processing": { ask: { to: "processing" }, updates: 1, expected: { status: "processing", error: null } },
  "pending → sent, through processing": { ask: { to: "sent" }, updates: 2, expected: { status: "sent", error: null } },
  "pending → returned R02, through processing": {
    ask: { to: "returned", error: "R02" },
    updates: 2,
    expected: { status: "returned", error: "R02 Account Closed" },
  },
  "pending → canceled": { ask: { to: "canceled" }, updates: 1, expected: { status: "canceled", error: null } },
  "pending → error with a message": { ask: { to: "error", error: "Bank said no" }, updates: 1, expected: { status: "error", error: "Bank said no" } },
  "processing → sent": { path: [{ to: "processing" }], ask: { to: "sent" }, updates: 1, expected: { status: "sent" } },
  "processing → returned, R01 by default": {
    path: [{ to: "processing" }],
    ask: { to: "returned" },
    updates: 1,
    expected: { status: "returned", error: "R01 Insufficient Funds" },
  },
  "processing → error, the operator's message by default": {
    path: [{ to: "processing" }],
    ask: { to: "error" },
    updates: 1,
    expected: { status: "error", error: magicError(achRules) },
  },
};

const networkTransferCases: Record<string, Case> = {
  "pending → sent": { fields: { version: "v1" }, ask: { to: "sent" }, updates: 1, expected: { status: "sent", error: null, balanced_at: null } },
  "pending → error with a message": { ask: { to: "error", error: "Core down" }, updates: 1, expected: { status: "error", error: "Core down" } },
  "pending → error, the magic message by default": {
    ask: { to: "error" },
    updates: 1,
    expected: { status: "error", error: "Insufficient funds in the originating account" },
  },
  "pending → canceled": { ask: { to: "canceled" }, updates: 1, expected: { status: "canceled", error: null } },
  "v2 cross-bank pending → sent, its balancing wire left for later": {
    fields: { version: "v2", cross_bank: true },
    ask: { to: "sent" },
    updates: 1,
    expected: { status: "sent", balanced_at: null },
  },
  "v2 cross-bank sent → sent: its balancing wire goes out": {
    fields: { version: "v2", cross_bank: true },
    path: [{ to: "sent" }],
    ask: { to: "sent" },
    updates: 1,
    expected: { status: "sent" },
  },
};

const debit = { payment_type: "debit" };
const fednowCases: Record<string, Case> = {
  "pending → processing": { ask: { to: "processing" }, updates: 1, expected: { status: "processing", external_status: null } },
  "credit pending → done, through processing": { ask: { to: "done" }, updates: 2, expected: { status: "done", external_status: null } },
  "pending → error with a message, through processing": {
    ask: { to: "error", error: "Timeout" },
    updates: 2,
    expected: { status: "error", error: "Timeout" },
  },
  "processing → error, the magic message by default": {
    path: [{ to: "processing" }],
    ask: { to: "error" },
    updates: 1,
    expected: { status: "error", error: magicError(fednowRules) },
  },
  "debit pending → sent: external_status pending": {
    fields: debit,
    ask: { to: "sent" },
    updates: 2,
    expected: { status: "sent", external_status: "pending" },
  },
  "debit pending → external done, all four steps": {
    fields: debit,
    ask: { external_status: "done" },
    updates: 4,
    expected: { status: "sent", external_status: "done" },
  },
  "debit pending → external rejected AM04": {
    fields: debit,
    ask: { to: "sent", external_status: "rejected", external_reject_reason: "AM04" },
    updates: 4,
    expected: { status: "sent", external_status: "rejected", external_reject_reason: { code: "AM04", message: "Insufficient funds" } },
  },
  "sent → external processing": {
    fields: debit,
    path: [{ to: "sent" }],
    ask: { external_status: "processing" },
    updates: 1,
    expected: { external_status: "processing" },
  },
  "sent → external rejected, AC04 by default": {
    fields: debit,
    path: [{ to: "sent" }],
    ask: { external_status: "rejected" },
    updates: 2,
    expected: { external_status: "rejected", external_reject_reason: { code: "AC04", message: "Closed account number" } },
  },
  "sent → external blocked": {
    fields: debit,
    path: [{ to: "sent" }],
    ask: { external_status: "blocked" },
    updates: 2,
    expected: { external_status: "blocked", external_reject_reason: null },
  },
  "external processing → external error": {
    fields: debit,
    path: [{ external_status: "processing" }],
    ask: { external_status: "error" },
    updates: 1,
    expected: { status: "sent", external_status: "error" },
  },
};

/** A transition not valid from where the object stands, and the valid ones the 409 must list. */
type Refusal = {
  fields?: Record<string, unknown>;
  path?: Array<Record<string, unknown>>;
  ask: Record<string, unknown>;
  valid: Record<string, string[]>;
};

const refusals: Record<"ach" | "network_transfer" | "fednow", Record<string, Refusal>> = {
  ach: {
    "pending → pending": { ask: { to: "pending" }, valid: { valid: ["processing", "sent", "returned", "canceled", "error"] } },
    "processing → canceled": { path: [{ to: "processing" }], ask: { to: "canceled" }, valid: { valid: ["sent", "returned", "error"] } },
    "sent → returned": { path: [{ to: "sent" }], ask: { to: "returned" }, valid: { valid: [] } },
    "returned → sent": { path: [{ to: "returned" }], ask: { to: "sent" }, valid: { valid: [] } },
  },
  network_transfer: {
    "pending → pending": { ask: { to: "pending" }, valid: { valid: ["canceled", "sent", "error"] } },
    "v1 sent → error": { fields: { version: "v1" }, path: [{ to: "sent" }], ask: { to: "error" }, valid: { valid: [] } },
    "balanced sent → sent": {
      fields: { version: "v2", cross_bank: true },
      path: [{ to: "sent" }, { to: "sent" }],
      ask: { to: "sent" },
      valid: { valid: [] },
    },
    "canceled → sent": { path: [{ to: "canceled" }], ask: { to: "sent" }, valid: { valid: [] } },
    "v2 cross-bank sent, not yet balanced → canceled": {
      fields: { version: "v2", cross_bank: true },
      path: [{ to: "sent" }],
      ask: { to: "canceled" },
      valid: { valid: ["sent"] },
    },
  },
  fednow: {
    "credit pending → sent": { ask: { to: "sent" }, valid: { valid: ["processing", "done", "error"], valid_external_status: [] } },
    "debit pending → done": {
      fields: debit,
      ask: { to: "done" },
      valid: { valid: ["processing", "sent", "error"], valid_external_status: ["pending", "processing", "done", "rejected", "blocked", "error"] },
    },
    "sent → error": {
      fields: debit,
      path: [{ to: "sent" }],
      ask: { to: "error" },
      valid: { valid: [], valid_external_status: ["processing", "done", "rejected", "blocked", "error"] },
    },
    "external done → external rejected": {
      fields: debit,
      path: [{ external_status: "done" }],
      ask: { external_status: "rejected" },
      valid: { valid: [], valid_external_status: [] },
    },
  },
};

const cases = { ach: achCases, network_transfer: networkTransferCases, fednow: fednowCases };

describe.each(testDatabaseTargets)("POST /sandbox/{resource}/{id}/transition on $name", (target) => {
  const bank = sandboxWithReceiver(
    target,
    ["ach", "network_transfer", "fednow", "counterparty", "webhook"].flatMap((resource) => [`${resource}.create`, `${resource}.update`]),
  );
  const transition = (resource: string, id: string, json: unknown) => bank.request(`/sandbox/${resource}/${id}/transition`, { method: "POST", json });

  /** A new object of `resource` moved along `path`, each step answered 200. */
  async function objectAt(resource: keyof typeof cases, fields: Record<string, unknown> = {}, path: Array<Record<string, unknown>> = []) {
    if (resource === "ach") expect((await bank.request("/sandbox/counterparty", { method: "POST", json: {} })).status).toBe(201);
    const created = await bank.request(`/sandbox/${resource}`, { method: "POST", json: fields });
    expect(created.status).toBe(201);
    const id = (created.body as Body).id;
    for (const step of path) expect((await transition(resource, id, step)).status).toBe(200);
    return id;
  }

  describe.each(Object.keys(cases) as Array<keyof typeof cases>)("%s", (resource) => {
    it.each(Object.entries(cases[resource]))("%s: 200 with the object as GET answers it, each step's update fired once", async (_name, test) => {
      const id = await objectAt(resource, test.fields, test.path);
      const before = (await bank.eventsAbout(id)).length;
      const moved = await transition(resource, id, test.ask);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject(test.expected);
      expect(moved.body).toEqual((await bank.request(`/${resource}/${id}`)).body);
      const events = await bank.eventsAbout(id);
      expect(events.filter((name) => name === `${resource}.update`)).toHaveLength(before - 1 + test.updates);
      expect(events).toHaveLength(before + test.updates);
      const updatedAt = Date.parse((moved.body as Body).updated_at);
      expect(Math.abs(updatedAt - bank.sandbox.context.now().getTime())).toBeLessThan(5_000);
      if (test.expected.balanced_at === undefined && resource === "network_transfer" && test.path) {
        expect((moved.body as Body).balanced_at).toBe((moved.body as Body).updated_at);
      }
    });

    it.each(Object.entries(refusals[resource]))("%s: 409 listing the valid transitions, nothing changed or fired", async (_name, test) => {
      const id = await objectAt(resource, test.fields, test.path);
      const before = (await bank.request(`/${resource}/${id}`)).body;
      const eventsBefore = await bank.eventsAbout(id);
      const refused = await transition(resource, id, test.ask);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: expect.stringContaining(`cannot move to`), ...test.valid });
      expect((await bank.request(`/${resource}/${id}`)).body).toEqual(before);
      expect(await bank.eventsAbout(id)).toEqual(eventsBefore);
    });

    it("answers 404 for an object that does not exist", async () => {
      const missing = await transition(resource, `${resource}_missing`, { to: "error" });
      expect(missing).toMatchObject({ status: 404, body: { error: `No ${resource} with id ${resource}_missing` } });
    });

    it("answers 400 naming the valid values for an unknown to, and naming an unknown field", async () => {
      const id = await objectAt(resource);
      const unknown = await transition(resource, id, { to: "lost" });
      expect(unknown.status).toBe(400);
      expect((unknown.body as { error: string }).error).toMatch(/^to must be one of pending, /);
      expect((await transition(resource, id, { to: "error", colour: "red" })).body).toEqual({ error: "unknown field: colour" });
      expect((await transition(resource, id, { to: "canceled", error: "why" })).status).toBe(400);
    });
  });

  it("refuses a return code it does not know, naming the field and the codes", async () => {
    const id = await objectAt("ach");
    const refused = await transition("ach", id, { to: "returned", error: "R99" });
    expect(refused).toEqual(
      expect.objectContaining({ status: 400, body: { error: `error must be an ACH return code: one of ${Object.keys(achReturnCodes).join(", ")}` } }),
    );
  });

  it("refuses an instant payment's reject reason it does not know, and one given without external_status rejected", async () => {
    const id = await objectAt("fednow", debit);
    const unknown = await transition("fednow", id, { external_status: "rejected", external_reject_reason: "ZZ99" });
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: `external_reject_reason must be one of ${Object.keys(fednowRejectReasons).join(", ")}` },
    });
    const misplaced = await transition("fednow", id, { external_status: "done", external_reject_reason: "AC04" });
    expect(misplaced).toMatchObject({ status: 400, body: { error: "external_reject_reason applies only to external_status rejected" } });
    const conflicting = await transition("fednow", id, { to: "done", external_status: "done" });
    expect(conflicting.status).toBe(400);
    expect((conflicting.body as { error: string }).error).toContain("to must be sent");
  });

  it("keeps the return codes of the lifecycle's magic amounts and reject reasons, so both say the same", () => {
    for (const rule of achRules) {
      if (rule.outcome.status !== "returned") continue;
      const [code, ...title] = rule.outcome.error.split(" ");
      expect(achReturnCodes[code!]).toBe(title.join(" "));
    }
    for (const rule of fednowRules) {
      const reason = rule.outcome.status === "settled" ? rule.outcome.externalRejectReason : null;
      if (reason) expect(fednowRejectReasons[reason.code]).toBe(reason.message);
    }
    expect(networkTransferRules.some((rule) => rule.outcome.status === "error")).toBe(true);
  });

  it("answers 401 without credentials and changes nothing", async () => {
    const id = await objectAt("ach");
    const anonymous = await bank.request(`/sandbox/ach/${id}/transition`, { method: "POST", json: { to: "sent" }, headers: { authorization: "" } });
    expect(anonymous.status).toBe(401);
    expect((await bank.request(`/ach/${id}`)).body).toMatchObject({ status: "pending" });
  });

  it("answers 404 naming the resources for a resource that has no transitions", async () => {
    const refused = await bank.request("/sandbox/card/card_x/transition", { method: "POST", json: { to: "locked" } });
    expect(refused.status).toBe(404);
    expect((refused.body as { error: string }).error).toContain(
      "POST /sandbox/{resource}/{id}/transition moves ach, network_transfer, fednow, webhook",
    );
  });

  describe("GET /sandbox/{resource}/{id}/transitions", () => {
    const transitions = (resource: string, id: string) => bank.request(`/sandbox/${resource}/${id}/transitions`);

    it("lists where an ACH transfer stands and the valid targets, as a 409 would, along its road", async () => {
      const id = await objectAt("ach");
      expect(await transitions("ach", id)).toMatchObject({
        status: 200,
        body: { status: "pending", valid: ["processing", "sent", "returned", "canceled", "error"] },
      });
      expect((await transition("ach", id, { to: "processing" })).status).toBe(200);
      expect((await transitions("ach", id)).body).toEqual({ status: "processing", valid: ["sent", "returned", "error"] });
      expect((await transition("ach", id, { to: "returned", error: "R01" })).status).toBe(200);
      expect((await transitions("ach", id)).body).toEqual({ status: "returned", valid: [] });
    });

    it("lists a network transfer's targets, and a v2 cross-bank sent one's balancing wire", async () => {
      const id = await objectAt("network_transfer", { version: "v2", cross_bank: true });
      expect((await transitions("network_transfer", id)).body).toEqual({ status: "pending", valid: ["canceled", "sent", "error"] });
      expect((await transition("network_transfer", id, { to: "sent" })).status).toBe(200);
      expect((await transitions("network_transfer", id)).body).toEqual({ status: "sent", valid: ["sent"] });
    });

    it("lists an instant payment's targets of to and of external_status, its status as a 409 words it", async () => {
      const id = await objectAt("fednow", debit);
      expect((await transitions("fednow", id)).body).toEqual({
        status: "pending",
        valid: ["processing", "sent", "error"],
        valid_external_status: ["pending", "processing", "done", "rejected", "blocked", "error"],
      });
      expect((await transition("fednow", id, { to: "sent" })).status).toBe(200);
      expect((await transitions("fednow", id)).body).toEqual({
        status: "sent (external_status pending)",
        valid: [],
        valid_external_status: ["processing", "done", "rejected", "blocked", "error"],
      });
    });

    it("lists a webhook's moves, none once disabled", async () => {
      const hook = await bank.request("/webhook", { method: "POST", json: { url: bank.receiver.url("/listed"), event: "card.create" } });
      const id = (hook.body as Body).id;
      expect((await transitions("webhook", id)).body).toEqual({ status: "enabled", valid: ["error", "disabled"] });
      expect((await transition("webhook", id, { to: "error" })).status).toBe(200);
      expect((await transitions("webhook", id)).body).toEqual({ status: "error", valid: ["disabled"] });
      expect((await transition("webhook", id, { to: "disabled" })).status).toBe(200);
      expect((await transitions("webhook", id)).body).toEqual({ status: "disabled", valid: [] });
    });

    it.each(["ach", "network_transfer", "fednow", "webhook"])(
      "answers 404 for a %s that does not exist, and 401 without credentials",
      async (resource) => {
        expect(await transitions(resource, `${resource}_missing`)).toMatchObject({
          status: 404,
          body: { error: `No ${resource} with id ${resource}_missing` },
        });
        const anonymous = await bank.request(`/sandbox/${resource}/${resource}_missing/transitions`, { headers: { authorization: "" } });
        expect(anonymous.status).toBe(401);
      },
    );

    it("is in the OpenAPI document under the sandbox tag, beside the transition", async () => {
      const document = (await bank.request("/openapi.json")).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
      for (const resource of ["ach", "network_transfer", "fednow", "webhook"]) {
        expect(document.paths[`/sandbox/${resource}/{id}/transitions`]?.get?.tags).toEqual(["sandbox"]);
      }
    });
  });

  describe("webhook", () => {
    /** A webhook with a delivery still pending: its receiver failed once, and the retry is a minute away. */
    async function webhookWithPendingDelivery() {
      const path = `/failing-${Math.random().toString(36).slice(2)}`;
      bank.receiver.respondWith((at) => (at === path ? 500 : 200));
      const hook = await bank.request("/webhook", { method: "POST", json: { url: bank.receiver.url(path), event: "counterparty.create" } });
      expect(hook.status).toBe(201);
      const id = (hook.body as Body).id;
      expect((await bank.request("/sandbox/counterparty", { method: "POST", json: {} })).status).toBe(201);
      await eventually(() => bank.receiver.at(path).length === 1);
      const states = async () =>
        (
          await bank.sandbox.context.db
            .select({ state: webhookDeliveries.state, attempts: webhookDeliveries.attempts })
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.webhookId, id))
        ).map((row) => `${row.state} after ${row.attempts}`);
      // The failed attempt recorded: the delivery waits for its retry.
      await eventually(async () => (await states()).join() === "pending after 1");
      return { id, path, states };
    }

    it.each([
      [
        "error, with the threshold's reason by default",
        { to: "error" },
        { status: "error", error: "10 bad responses within 300 s; last: HTTP 500 (POST /sandbox/webhook/{id}/transition)" },
      ],
      ["error, with the reason given", { to: "error", error: "receiver is down" }, { status: "error", error: "receiver is down" }],
      ["disabled", { to: "disabled" }, { status: "disabled", error: null }],
    ])("enabled → %s: webhook.update fired once and its pending deliveries paused, as the error threshold does", async (_name, ask, expected) => {
      const { id, path, states } = await webhookWithPendingDelivery();
      const moved = await transition("webhook", id, ask);
      expect(moved).toMatchObject({ status: 200, body: expected });
      expect(moved.body).toEqual((await bank.request(`/webhook/${id}`)).body);
      expect(await bank.eventsAbout(id)).toEqual(["webhook.create", "webhook.update"]);
      expect(await states()).toEqual(["paused after 1"]);
      // Reset as after the threshold: the paused delivery is sent at once.
      bank.receiver.respondWith(() => 200);
      expect((await bank.request(`/webhook/${id}`, { method: "PATCH", json: { status: "enabled" } })).status).toBe(200);
      await eventually(() => bank.receiver.at(path).length === 2);
      await eventually(async () => (await states()).join() === "delivered after 2");
    });

    it("error → disabled clears the reason and fires webhook.update once; disabled → error is a 409 listing none", async () => {
      const { id } = await webhookWithPendingDelivery();
      expect((await transition("webhook", id, { to: "error" })).status).toBe(200);
      const disabled = await transition("webhook", id, { to: "disabled" });
      expect(disabled).toMatchObject({ status: 200, body: { status: "disabled", error: null } });
      expect(await bank.eventsAbout(id)).toEqual(["webhook.create", "webhook.update", "webhook.update"]);
      const refused = await transition("webhook", id, { to: "error" });
      expect(refused).toEqual(
        expect.objectContaining({ status: 409, body: { error: `webhook ${id} is disabled: it cannot move to error; valid: none`, valid: [] } }),
      );
    });

    it("refuses to as enabled (a PATCH resets a webhook) and an unknown webhook", async () => {
      const hook = await bank.request("/webhook", { method: "POST", json: { url: bank.receiver.url("/quiet"), event: "card.create" } });
      const enabled = await transition("webhook", (hook.body as Body).id, { to: "enabled" });
      expect(enabled).toMatchObject({
        status: 400,
        body: { error: "to must be one of error, disabled (PATCH /webhook/{id} with status enabled resets a webhook)" },
      });
      expect((await transition("webhook", "webhook_missing", { to: "error" })).status).toBe(404);
    });
  });
});
