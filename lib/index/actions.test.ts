import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, gte } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import { createBankClient } from "@/lib/bank/client";
import { createStaff } from "@/lib/auth/staff-users";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { webhooks } from "@/sandbox/db/webhook-schema";
import { auditRecordsOf, expectedAuditRecord, formOf, Refused, requireRole } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { indexActions, type IndexActionState } from "./actions";
import { backfillLists, indexContents, receiverSummary, subscriptionsView, walkIdleMs } from "./actions-overview";
import { runBackfill } from "./backfill";
import { storeNotification } from "./inbox";
import { ensureReceiverCredentials, loadReceiverCredentials, rotateReceiverCredentials } from "./receiver-credentials";
import { ensureSubscriptions, subscribedEvents } from "./subscriptions";
import { serveReceiver } from "@/tests/support/receiver-server";
import { readUntil, sandboxBankForFile } from "@/tests/support/sandbox-bank";

// The admin's index controls (server actions) against the sandbox bank started for real, a real console database and
// its audit trail. Given: the session (`requireUser` refuses a role without the permission, as the real one does with
// a 403), and the runtime's wiring rebuilt from the same lib/index functions with this test's database and bank.

const idle: IndexActionState = { error: null, done: null };
const key = { id: "key_index_actions", secret: "index-actions-secret-0123456789" };
const log = createLogger({ level: "silent" });
const fixture = sandboxBankForFile(key);

describe.each(testDatabaseTargets)("index server actions on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const encryptionKey = randomBytes(32);
  // The two database targets run one after the other and share the sandbox's subscriptions: each one's setup points
  // them at its own receiver with its own credentials.
  const environment: Environment = "sandbox";
  let receiver: Awaited<ReturnType<typeof serveReceiver>>;
  let actor: StaffUser;
  let requestId: string;
  let bankConfigured: boolean;
  let walks: Array<Promise<unknown>>;

  const clientFor = async () => (bankConfigured ? fixture.bank : null);
  const actions = indexActions({
    requireUser: requireRole(() => actor),
    db: async () => database.db,
    clientFor,
    setUpSubscriptions: async (environment, by) =>
      ensureSubscriptions(fixture.bank, {
        environment,
        receiverUrl: receiver.url(environment),
        credentials: await ensureReceiverCredentials(database.db, environment, encryptionKey, by),
      }),
    rotateReceiver: async (environment, by) =>
      ensureSubscriptions(fixture.bank, {
        environment,
        receiverUrl: receiver.url(environment),
        credentials: await rotateReceiverCredentials(database.db, environment, encryptionKey, by, 600_000),
      }),
    startBackfill: (environment) =>
      void walks.push(runBackfill({ db: database.db, client: fixture.bank, environment, pageSize: 100, pagesPerSecond: 0, log })),
    audited: (entry, perform, options) => audited(database.db, entry, perform, options),
    newRequestId: () => requestId,
    changed: () => undefined,
  });
  const form = (fields: Record<string, string> = {}) => formOf({ environment, ...fields });
  const recordsOfThisRequest = () => auditRecordsOf(database, requestId);
  const expectedRecord = (fields: Parameters<typeof expectedAuditRecord>[1]) => expectedAuditRecord({ actor, environment, requestId }, fields);
  const ownSubscriptions = async () => {
    const view = await subscriptionsView(fixture.bank, environment);
    if (view.kind !== "listed") throw new Error(`subscriptions not listed: ${view.kind}`);
    return view.subscriptions;
  };

  beforeAll(async () => {
    receiver = await serveReceiver({
      credentialsOf: (environment) => loadReceiverCredentials(database.db, environment, encryptionKey),
      store: (environment, notification) => storeNotification(database.db, environment, notification),
    });
    actor = await createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: "Admin", role: "admin", password: null });
    requestId = `req_setup_${randomUUID()}`;
    bankConfigured = true;
    walks = [];
    expect(await actions.setUpSubscriptions(idle, form())).toMatchObject({ error: null });
    // Deliveries attempted while no receiver listened (between the two targets) may have put one in error.
    for (const state of await ownSubscriptions())
      if (state.status === "error") await fixture.bank.patch_webhook(state.webhookId!, { status: "enabled" });
  });
  afterAll(async () => {
    await Promise.all(walks);
    await receiver?.close();
  });
  beforeEach(async () => {
    await Promise.all(walks);
    actor = await createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: "Admin", role: "admin", password: null });
    requestId = `req_${randomUUID()}`;
    bankConfigured = true;
    walks = [];
  });

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
    expect(after).toMatchObject({ username: "console-sandbox", createdBy: actor.email });
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

  it("starts the backfill and walks every list again on a repair", async () => {
    await actions.purgeIndex(idle, form());
    requestId = `req_${randomUUID()}`;
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({ error: null, done: "Backfill of sandbox started" });
    await Promise.all(walks);
    const walked = await backfillLists(database.db, environment);
    expect(walked.map((list) => list.walk)).toEqual(walked.map(() => "done"));
    const objects = walked.reduce((sum, list) => sum + list.objects, 0);
    expect(objects).toBeGreaterThan(0);
    expect((await indexContents(database.db, environment)).byResource.reduce((sum, row) => sum + row.objects, 0)).toBe(objects);
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.backfill.start",
        targetId: environment,
        before: { objects: 0, listsDone: 0, lists: walked.length },
        after: { mode: "resume" },
        outcome: "succeeded",
        error: null,
      }),
    ]);

    requestId = `req_${randomUUID()}`;
    const pagesBefore = walked.map((list) => list.pages);
    expect(await actions.startBackfill(idle, form({ mode: "repair" }))).toEqual({
      error: null,
      done: "Walking every sandbox list again from its first page",
    });
    await Promise.all(walks);
    const again = await backfillLists(database.db, environment);
    expect(again.map((list) => [list.walk, list.pages])).toEqual(walked.map((list, index) => ["done", pagesBefore[index]]));
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.backfill.start",
        targetId: environment,
        before: { objects, listsDone: walked.length, lists: walked.length },
        after: { mode: "repair" },
        outcome: "succeeded",
        error: null,
      }),
    ]);
  });

  it("refuses to start while a list is being walked, and resumes a walk that stopped", async () => {
    await actions.purgeIndex(idle, form());
    requestId = `req_${randomUUID()}`;
    const walking = { environment, resource: "ach", cursor: null, objects: 100, pages: 1 };
    await database.db.insert(schema.indexBackfill).values({ ...walking, updatedAt: new Date() });
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({
      error: expect.stringMatching(
        /^A walk is in progress \(ach, last page at [A-Z][a-z]{2} \d{1,2}(, \d{4})?, \d{2}:\d{2} \(UTC\)\); wait until it finishes or stops\.$/,
      ),
      done: null,
    });
    expect(await actions.startBackfill(idle, form({ mode: "repair" }))).toMatchObject({ error: expect.stringMatching(/^A walk is in progress/) });
    expect(walks).toEqual([]);
    expect(await recordsOfThisRequest()).toEqual([]);

    await database.db
      .update(schema.indexBackfill)
      .set({ updatedAt: new Date(Date.now() - walkIdleMs - 1000) })
      .where(eq(schema.indexBackfill.environment, environment));
    expect((await backfillLists(database.db, environment)).find((list) => list.resource === "ach")?.walk).toBe("interrupted");
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({ error: null, done: "Backfill of sandbox started" });
    await Promise.all(walks);
    expect((await backfillLists(database.db, environment)).every((list) => list.walk === "done")).toBe(true);
  });

  it("purges everything the index holds of the environment and records what went", async () => {
    await runBackfill({ db: database.db, client: fixture.bank, environment, pageSize: 100, pagesPerSecond: 0, log });
    const held = await indexContents(database.db, environment);
    const objects = held.byResource.reduce((sum, row) => sum + row.objects + row.gone, 0);
    expect(objects).toBeGreaterThan(0);
    expect(await actions.purgeIndex(idle, form())).toEqual({ error: null, done: "Purged the sandbox index" });
    const left = await indexContents(database.db, environment);
    expect(left).toMatchObject({ versions: 0, inbox: { total: 0, waiting: 0, failing: 0 } });
    expect(left.byResource.every((row) => row.objects === 0 && row.gone === 0)).toBe(true);
    expect((await backfillLists(database.db, environment)).every((list) => list.walk === "not started")).toBe(true);
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.purge",
        targetId: environment,
        outcome: "succeeded",
        error: null,
        before: { objects, versions: held.versions, notifications: held.inbox.total },
        after: { objects: 0, versions: 0, notifications: 0 },
      }),
    ]);
  });

  it("says plainly when the environment has no bank credentials, and records nothing", async () => {
    bankConfigured = false;
    expect(await subscriptionsView(await clientFor(), environment)).toEqual({ kind: "not configured" });
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({
      error: "The sandbox environment has no bank credentials.",
      done: null,
    });
    expect(await actions.resetSubscription(idle, form({ webhookId: "wh_x" }))).toEqual({
      error: "The sandbox environment has no bank credentials.",
      done: null,
    });
    expect(await recordsOfThisRequest()).toEqual([]);
  });

  it("says what the bank answered when it cannot be reached", async () => {
    const unreachable = createBankClient({ baseUrl: "http://127.0.0.1:9", auth: { type: "bearer", token: "x" } }, { retries: 0 });
    expect(await subscriptionsView(unreachable, environment)).toEqual({ kind: "unreachable", reason: expect.stringMatching(/.+/) });
  });

  it("records a failed change when the bank refuses it, and tells the admin", async () => {
    const failing = indexActions({
      requireUser: requireRole(() => actor),
      db: async () => database.db,
      clientFor,
      startBackfill: () => undefined,
      setUpSubscriptions: async () => {
        throw new Error("the bank answered 503");
      },
      rotateReceiver: async () => [],
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      newRequestId: () => requestId,
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
    actor = await createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
    const receiverBefore = await receiverSummary(database.db, environment);
    const listsBefore = await backfillLists(database.db, environment);
    await expect(actions.rotateReceiverSecret(idle, form())).rejects.toThrow(Refused);
    await expect(actions.setUpSubscriptions(idle, form())).rejects.toThrow(Refused);
    await expect(actions.resetSubscription(idle, form({ webhookId: "wh_x" }))).rejects.toThrow(Refused);
    await expect(actions.startBackfill(idle, form({ mode: "repair" }))).rejects.toThrow(Refused);
    await expect(actions.purgeIndex(idle, form())).rejects.toThrow(Refused);
    expect(walks).toEqual([]);
    expect(await receiverSummary(database.db, environment)).toEqual(receiverBefore);
    expect(await backfillLists(database.db, environment)).toEqual(listsBefore);
    expect(await recordsOfThisRequest()).toEqual([]);
  });
});
