import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, gte } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import { createStaff } from "@/lib/auth/staff-users";
import * as schema from "@/lib/db/console-schema";
import { webhooks } from "@/sandbox/db/webhook-schema";
import { formOf, Refused, requireRole } from "@/tests/support/audit-records";
import { testDatabaseTargets } from "@/tests/support/databases";
import { idle, indexActionsKey, indexActionsUnderTest } from "@/tests/support/index-actions";
import { readUntil, sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { indexActions } from "./actions";
import { backfillLists, receiverSummary } from "./actions-overview";
import { loadReceiverCredentials } from "./receiver-credentials";
import { subscribedEvents } from "./subscriptions";

// The admin's controls of the index's subscriptions and receiver (server actions): set up, rotate the secret, reset one
// in error, each recorded in the audit trail, refused to other roles and for bad input. The setting is
// tests/support/index-actions.ts: the sandbox bank and a receiver started for real, a real console database. What the
// index holds (backfill, purge) and what the page shows are in actions-overview.test.ts.

const fixture = sandboxBankForFile(indexActionsKey);

describe.each(testDatabaseTargets)("index subscription and receiver actions on $name", (target) => {
  const run = indexActionsUnderTest(target, () => fixture.bank);
  const { database, environment, encryptionKey, actions, clientFor, form, recordsOfThisRequest, expectedRecord, ownSubscriptions } = run;

  it("sets up one subscription per event idempotently, and records what it did", async () => {
    const before = { receiver: await receiverSummary(database.db, environment) };
    expect(await actions.setUpSubscriptions(idle, form())).toEqual({
      error: null,
      done: `Set up the sandbox subscriptions: ${subscribedEvents.length} unchanged`,
    });
    const subscriptions = await ownSubscriptions();
    expect(subscriptions.map((state) => [state.event, state.status])).toEqual(subscribedEvents.map((event) => [event, "enabled"]));
    const after = expect.arrayContaining(subscriptions.map(({ event, webhookId, status }) => ({ event, webhookId, status, action: "unchanged" })));
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({ action: "index.subscriptions.ensure", targetId: environment, before, after, outcome: "succeeded", error: null }),
    ]);
  });

  it("rotates the receiver secret: the subscriptions carry the new one, a change at the bank still arrives, and no secret is recorded", async () => {
    const before = await receiverSummary(database.db, environment);
    const oldSecret = (await loadReceiverCredentials(database.db, environment, encryptionKey))!.secret;
    expect(await actions.rotateReceiverSecret(idle, form())).toEqual({
      error: null,
      done: `Rotated the sandbox receiver secret; subscriptions: ${subscribedEvents.length} updated`,
    });
    const after = await receiverSummary(database.db, environment);
    expect(after).toMatchObject({ username: "console-sandbox", createdBy: run.actor.email });
    expect(after!.keyId).not.toBe(before!.keyId);
    const newSecret = (await loadReceiverCredentials(database.db, environment, encryptionKey))!.secret;
    const records = await recordsOfThisRequest();
    expect(records).toEqual([
      expectedRecord({
        action: "index.receiver.rotate",
        targetId: environment,
        before: { receiver: before },
        outcome: "succeeded",
        error: null,
        after: {
          receiver: after,
          subscriptions: expect.arrayContaining([
            expect.objectContaining({ event: "network_transfer.update", action: "updated", status: "enabled" }),
          ]),
        },
      }),
    ]);
    expect(JSON.stringify(records)).not.toContain(newSecret);
    expect(JSON.stringify(records)).not.toContain(oldSecret);

    const [transfer] = (await fixture.bank.list_network_transfer({ page_size: 1 })).data as Array<{ id: string }>;
    const changedAt = new Date();
    await fixture.bank.patch_network_transfer(transfer!.id, { userdata: { rotated: randomBytes(4).toString("hex") } });
    const arrived = await readUntil(
      () =>
        database.db
          .select()
          .from(schema.bankEventInbox)
          .where(and(eq(schema.bankEventInbox.objectId, transfer!.id), gte(schema.bankEventInbox.lastReceivedAt, changedAt))),
      (rows) => rows.length > 0,
    );
    expect(arrived).toEqual([expect.objectContaining({ event: "network_transfer.update", environment })]);
    // The re-registration announces itself (webhook.update) while it runs: none of that drives a subscription into error.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await ownSubscriptions()).filter((state) => state.status !== "enabled")).toEqual([]);
  });

  it("resets one of its subscriptions that the bank put in error, and records it under the webhook's id", async () => {
    const subscription = (await ownSubscriptions()).find((state) => state.event === "card.update")!;
    const webhookId = subscription.webhookId!;
    // The sandbox sets `error` itself after repeated bad responses; here its database is told directly.
    await fixture.sandbox.context.db.update(webhooks).set({ status: "error", error: "16 bad responses" }).where(eq(webhooks.id, webhookId));
    expect(await actions.resetSubscription(idle, form({ webhookId }))).toEqual({ error: null, done: "Reset the card.update subscription: enabled" });
    expect((await fixture.bank.get_webhook(webhookId)).status).toBe("enabled");
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.subscription.reset",
        targetId: webhookId,
        outcome: "succeeded",
        error: null,
        before: { event: "card.update", status: "error", error: "16 bad responses" },
        after: { event: "card.update", status: "enabled", error: null },
      }),
    ]);
  });

  it.each([
    ["an enabled subscription", async () => (await ownSubscriptions())[0]!.webhookId!, /^webhookId: \S+ is enabled, not in error$/],
    [
      "a webhook that is not the console's",
      async () => ((await fixture.bank.create_webhook({ url: "http://127.0.0.1:9/other", event: "ach.create" })) as { id: string }).id,
      /^webhookId: \S+ is not one of the console's sandbox subscriptions$/,
    ],
    ["no webhook id", async () => "", /^webhookId: expected the id/],
  ])("refuses to reset %s, naming the field, and records nothing", async (_name, webhookIdOf, message) => {
    expect(await actions.resetSubscription(idle, form({ webhookId: await webhookIdOf() }))).toEqual({
      error: expect.stringMatching(message),
      done: null,
    });
    expect(await recordsOfThisRequest()).toEqual([]);
  });

  it("records a failed change when the bank refuses it, and tells the admin", async () => {
    const failing = indexActions({
      requireUser: requireRole(() => run.actor),
      db: async () => database.db,
      clientFor,
      startBackfill: () => undefined,
      setUpSubscriptions: async () => {
        throw new Error("the bank answered 503");
      },
      rotateReceiver: async () => [],
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      newRequestId: () => run.requestId,
      changed: () => undefined,
    });
    expect(await failing.setUpSubscriptions(idle, form())).toEqual({ error: "index.subscriptions.ensure failed: the bank answered 503", done: null });
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.subscriptions.ensure",
        targetId: environment,
        before: { receiver: await receiverSummary(database.db, environment) },
        after: null,
        outcome: "failed",
        error: "the bank answered 503",
      }),
    ]);
  });

  it.each([
    ["rotate", () => actions.rotateReceiverSecret(idle, formOf({ environment: "staging" })), "environment: expected sandbox or production"],
    ["set up", () => actions.setUpSubscriptions(idle, formOf({})), "environment: expected sandbox or production"],
    ["purge", () => actions.purgeIndex(idle, formOf({ environment: "" })), "environment: expected sandbox or production"],
    ["backfill", () => actions.startBackfill(idle, form({ mode: "everything" })), "mode: expected resume or repair"],
  ])("refuses bad input to %s naming the field, and records nothing", async (_name, run, error) => {
    expect(await run()).toEqual({ error, done: null });
    expect(await recordsOfThisRequest()).toEqual([]);
  });

  it.each(["operations", "compliance", "viewer"] as const)("is refused to %s: nothing changes or is recorded", async (role) => {
    run.actor = await createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
    const receiverBefore = await receiverSummary(database.db, environment);
    const listsBefore = await backfillLists(database.db, environment);
    await expect(actions.rotateReceiverSecret(idle, form())).rejects.toThrow(Refused);
    await expect(actions.setUpSubscriptions(idle, form())).rejects.toThrow(Refused);
    await expect(actions.resetSubscription(idle, form({ webhookId: "wh_x" }))).rejects.toThrow(Refused);
    await expect(actions.startBackfill(idle, form({ mode: "repair" }))).rejects.toThrow(Refused);
    await expect(actions.purgeIndex(idle, form())).rejects.toThrow(Refused);
    expect(run.walks).toEqual([]);
    expect(await receiverSummary(database.db, environment)).toEqual(receiverBefore);
    expect(await backfillLists(database.db, environment)).toEqual(listsBefore);
    expect(await recordsOfThisRequest()).toEqual([]);
  });
});
