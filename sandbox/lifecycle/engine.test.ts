import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { achTransfers, fednowPayments, networkTransfers } from "@/sandbox/db/resources-schema";
import { events, webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import { seedDatabase } from "@/sandbox/seed";
import { createTestContext } from "@/tests/support/seed-context";
import { testDatabaseTargets } from "@/tests/support/databases";
import { BASE_STEP_MS, advanceOnce, lifecycleTiming, startLifecycleEngine } from "./engine";
import { achOutcome, fednowOutcome, networkTransferOutcome } from "./magic";

const START = new Date("2025-11-21T15:04:05Z");

describe("lifecycleTiming", () => {
  it("keeps objects a minute in each state at speed 1 and divides that by the speed", () => {
    expect(lifecycleTiming(1)).toEqual({ stepMs: BASE_STEP_MS, intervalMs: 1000 });
    expect(lifecycleTiming(60).stepMs).toBe(1000);
    expect(lifecycleTiming(6000).intervalMs).toBe(20);
  });
});

describe.each(testDatabaseTargets)("the lifecycle engine on $name", (target) => {
  let harness: Awaited<ReturnType<typeof createTestContext>>;
  const tick = (ms: number) => {
    harness.clock.now = new Date(harness.clock.now.getTime() + ms);
  };
  const achByStatus = async (statuses: string[]) => harness.ctx.db.select().from(achTransfers).where(inArray(achTransfers.status, statuses));

  /** Moves the clock a step at a time until nothing moves any more (every object in a terminal state). */
  const runToTerminalStates = async () => {
    for (let pass = 0; pass < 10; pass++) {
      tick(BASE_STEP_MS);
      if ((await advanceOnce(harness.ctx, { stepMs: BASE_STEP_MS })) === 0) return;
    }
    throw new Error("objects still moving after 10 steps");
  };

  // Every test starts from the freshly seeded demo data at START, so each passes alone and in any order.
  beforeEach(async () => {
    harness = await createTestContext(target, { now: START });
    await seedDatabase(harness.ctx, "demo");
    await harness.ctx.db.insert(webhooks).values({ id: "webhook_ach_watch", url: "http://127.0.0.1:9/hook", event: "ach.update" });
  });

  afterEach(async () => {
    await harness?.close();
  });

  it("moves nothing that has not spent a full step in its state", async () => {
    expect(await advanceOnce(harness.ctx, { stepMs: 4 * 3_600_000 })).toBe(0);
  });

  it("moves pending ACH transfers one step at a time: to processing first, or straight to canceled/error by magic", async () => {
    const pending = await achByStatus(["pending"]);
    expect(pending.length).toBeGreaterThan(0);
    tick(BASE_STEP_MS);
    expect(await advanceOnce(harness.ctx, { stepMs: BASE_STEP_MS })).toBeGreaterThan(0);
    for (const before of pending) {
      const [after] = await harness.ctx.db.select().from(achTransfers).where(eq(achTransfers.id, before.id));
      const outcome = achOutcome(before);
      const expected = outcome.status === "canceled" || outcome.status === "error" ? outcome.status : "processing";
      expect(after?.status).toBe(expected);
      expect(after?.updated_at.getTime()).toBe(harness.clock.now.getTime());
    }
  });

  it("emits ach.update for every change, in the same transaction, queued for the subscribed webhook", async () => {
    tick(BASE_STEP_MS);
    expect(await advanceOnce(harness.ctx, { stepMs: BASE_STEP_MS })).toBeGreaterThan(0);
    const changed = await harness.ctx.db.select().from(achTransfers).where(eq(achTransfers.updated_at, harness.clock.now));
    const emitted = await harness.ctx.db.select().from(events).where(eq(events.name, "ach.update"));
    expect(changed.length).toBeGreaterThan(0);
    expect(new Set(emitted.map((event) => event.objectId))).toEqual(new Set(changed.map((row) => row.id)));
    const queued = await harness.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, "webhook_ach_watch"));
    expect(queued).toHaveLength(emitted.length);
  });

  it("runs every transfer and payment to a terminal state, with the outcome its magic value forces", async () => {
    await runToTerminalStates();
    expect(await achByStatus(["pending", "processing"])).toEqual([]);
    for (const ach of await harness.ctx.db.select().from(achTransfers)) {
      const outcome = achOutcome(ach);
      if (outcome.status === "returned") expect({ status: ach.status, error: ach.error }).toEqual(outcome);
    }
    for (const transfer of await harness.ctx.db.select().from(networkTransfers)) {
      expect(transfer.status).not.toBe("pending");
      expect(transfer.status).toBe(networkTransferOutcome(transfer).status);
      expect(transfer.balanced_at !== null).toBe(transfer.status === "sent" && transfer.version === "v2" && transfer.cross_bank);
    }
    for (const payment of await harness.ctx.db.select().from(fednowPayments)) {
      const outcome = fednowOutcome({ amount: payment.amount, payment_type: payment.payment_type === "debit" ? "debit" : "credit" });
      if (outcome.status === "error") expect(payment.status).toBe("error");
      else if (payment.payment_type === "credit") expect(payment.status).toBe("done");
      else
        expect({ status: payment.status, external_status: payment.external_status }).toEqual({
          status: "sent",
          external_status: outcome.externalStatus,
        });
    }
  });

  it("rejects an outgoing instant payment with a reason when its amount ends in .13", async () => {
    await runToTerminalStates();
    const rejected = await harness.ctx.db
      .select()
      .from(fednowPayments)
      .where(and(eq(fednowPayments.external_status, "rejected"), eq(fednowPayments.payment_type, "debit")));
    expect(rejected.length).toBeGreaterThan(0);
    for (const payment of rejected) expect(payment.external_reject_reason).toMatchObject({ code: expect.stringMatching(/^A[CM]04$/) });
  });

  it("emits an update event for every object it changed, of every resource", async () => {
    await runToTerminalStates();
    for (const [resource, table] of [
      ["network_transfer", networkTransfers],
      ["fednow", fednowPayments],
    ] as const) {
      const changed = await harness.ctx.db.select({ id: table.id, updated_at: table.updated_at }).from(table);
      const moved = changed.filter((row) => row.updated_at.getTime() > START.getTime()).map((row) => row.id);
      const emitted = await harness.ctx.db
        .select()
        .from(events)
        .where(eq(events.name, `${resource}.update`));
      expect(moved.length).toBeGreaterThan(0);
      expect(new Set(emitted.map((event) => event.objectId))).toEqual(new Set(moved));
    }
  });

  it("runs on its own when started and stops cleanly", async () => {
    const [transfer] = await harness.ctx.db.select().from(achTransfers).limit(1);
    await harness.ctx.db.update(achTransfers).set({ status: "pending", amount: "10.00", error: null }).where(eq(achTransfers.id, transfer!.id));
    const settings = { ...harness.ctx.settings, lifecycle: "on" as const, lifecycleSpeed: 6000 };
    const engine = startLifecycleEngine({ ...harness.ctx, now: () => new Date(), settings });
    await vi.waitFor(
      async () => {
        const [row] = await harness.ctx.db.select().from(achTransfers).where(eq(achTransfers.id, transfer!.id));
        expect(row?.status).toBe("sent");
      },
      { timeout: 20_000, interval: 50 },
    );
    await engine.stop();
  });
});
