import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  achStatuses,
  cardStatuses,
  digitalWalletTokenStatuses,
  fednowExternalStatuses,
  fednowStatuses,
  legalStructures,
  listedResources,
  networkTransferStatuses,
} from "@/lib/contract";
import { achOutcome, achRules, fednowOutcome, forcedFulfillmentStatus, networkTransferOutcome } from "@/sandbox/lifecycle/magic";
import type { TableResource } from "@/sandbox/routes/resource-sources";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoSizes, generateSeedData, seedDatabase, seededTables } from "./index";
import { apiObjects, createTestContext } from "@/tests/support/seed-context";
import { naicsSectors } from "./vocabulary";

const NOW = new Date("2025-11-21T15:04:05Z");
const DAY = 86_400_000;

type ApiObject = Record<string, unknown>;
const values = (objects: ApiObject[], field: string) => new Set(objects.map((object) => object[field]));

describe("generateSeedData", () => {
  it("gives the same data for the same clock, down to every ACH transfer", () => {
    const collect = () => {
      const data = generateSeedData(NOW, 700);
      return JSON.stringify({ rows: data.rows, ach: [...data.achBatches(300)] });
    };
    expect(collect()).toBe(collect());
  });

  it("dates everything relative to the clock: within the past 90 days, nothing in the future", () => {
    const data = generateSeedData(NOW, 350);
    const ach = [...data.achBatches()].flat();
    for (const row of [...ach, ...data.rows.network_transfer, ...data.rows.fednow, ...data.rows.person_application]) {
      expect(row.created_at.getTime()).toBeLessThanOrEqual(NOW.getTime());
      expect(row.created_at.getTime()).toBeGreaterThan(NOW.getTime() - 91 * DAY);
      expect((row.updated_at as Date).getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());
    }
  });
});

describe.each(testDatabaseTargets)("seedDatabase on $name", (target) => {
  let harness: Awaited<ReturnType<typeof createTestContext>>;
  const objects = {} as Record<TableResource, ApiObject[]>;

  beforeAll(async () => {
    harness = await createTestContext(target, { now: NOW });
    await seedDatabase(harness.ctx, "demo");
    for (const resource of Object.keys(seededTables) as TableResource[]) objects[resource] = await apiObjects(harness.ctx, resource);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("loads the demo set: the documented number of objects of every resource, ACH spanning four pages of 100", () => {
    for (const [resource, size] of Object.entries(demoSizes)) expect(objects[resource as TableResource]).toHaveLength(size);
    expect(objects.ach.length).toBeGreaterThan(300);
  });

  it("renders every seeded object valid against the contract schema of its resource", () => {
    for (const resource of Object.keys(seededTables) as TableResource[]) {
      for (const object of objects[resource]) {
        const parsed = listedResources[resource].schema.safeParse(object);
        if (!parsed.success) throw new Error(`${resource} ${String(object.id)}: ${parsed.error.message}`);
      }
    }
  });

  it("holds every state of every resource, failures included", () => {
    expect(values(objects.ach, "status")).toEqual(new Set(achStatuses));
    expect(values(objects.network_transfer, "status")).toEqual(new Set(networkTransferStatuses));
    expect(values(objects.fednow, "status")).toEqual(new Set(fednowStatuses));
    expect(values(objects.fednow, "external_status")).toEqual(new Set([...fednowExternalStatuses, null]));
    expect(values(objects.card, "status")).toEqual(new Set(cardStatuses));
    expect(values(objects.digital_wallet_token, "status")).toEqual(new Set(digitalWalletTokenStatuses));
    expect(values(objects.business_application, "legal_structure")).toEqual(new Set(legalStructures));
    const returnCodes = achRules.flatMap((rule) => (rule.outcome.status === "returned" ? [rule.outcome.error] : []));
    expect(new Set(objects.ach.filter((ach) => ach.status === "returned").map((ach) => ach.error))).toEqual(new Set(returnCodes));
  });

  it("leaves some transfers and payments moving for the lifecycle engine", () => {
    expect(objects.ach.filter((ach) => ach.status === "pending" || ach.status === "processing").length).toBeGreaterThanOrEqual(5);
    expect(objects.network_transfer.filter((transfer) => transfer.status === "pending").length).toBeGreaterThanOrEqual(4);
    expect(objects.network_transfer.some((t) => t.status === "sent" && t.version === "v2" && t.cross_bank && t.balanced_at === null)).toBe(false);
    expect(objects.fednow.filter((payment) => payment.status === "pending" || payment.status === "processing").length).toBeGreaterThanOrEqual(3);
  });

  it("gives every finished transfer the outcome its magic value forces, and failures carry an error", () => {
    for (const ach of objects.ach.filter((row) => !["pending", "processing"].includes(String(row.status)))) {
      const outcome = achOutcome({ amount: String(ach.amount) });
      expect({ status: ach.status, error: ach.error }).toEqual({ status: outcome.status, error: "error" in outcome ? outcome.error : null });
    }
    for (const transfer of objects.network_transfer.filter((row) => row.status !== "pending")) {
      const outcome = networkTransferOutcome({ amount: String(transfer.amount), description: transfer.description as string | null });
      expect(transfer.status).toBe(outcome.status);
      expect(transfer.error).toBe("error" in outcome ? outcome.error : null);
    }
    for (const payment of objects.fednow.filter((row) => ["done", "sent", "error"].includes(String(row.status)))) {
      const outcome = fednowOutcome({ amount: String(payment.amount), payment_type: payment.payment_type as "credit" | "debit" });
      if (outcome.status === "error") expect({ status: payment.status, error: payment.error }).toEqual({ status: "error", error: outcome.error });
      else expect(payment.status).toBe(payment.payment_type === "credit" ? "done" : "sent");
    }
  });

  it("populates external_status only on sent payments, and a reject reason only on rejected ones", () => {
    for (const payment of objects.fednow) {
      expect(payment.external_status !== null).toBe(payment.status === "sent");
      expect(payment.external_reject_reason !== null).toBe(payment.external_status === "rejected");
    }
  });

  it("sets balanced_at only on sent cross-bank v2 network transfers", () => {
    for (const transfer of objects.network_transfer) {
      const balanced = transfer.version === "v2" && transfer.cross_bank === true && transfer.status === "sent";
      expect(transfer.balanced_at !== null).toBe(balanced);
    }
  });

  it("points ACH transfers at counterparties with an ach section that existed before the transfer", () => {
    const counterparties = new Map(objects.counterparty.map((counterparty) => [counterparty.id, counterparty]));
    for (const ach of objects.ach) {
      const counterparty = counterparties.get(ach.counterparty_id);
      expect(counterparty?.ach).not.toBeNull();
      expect(String(counterparty?.created_at) <= String(ach.created_at)).toBe(true);
    }
    expect(objects.counterparty.some((counterparty) => counterparty.ach === null && counterparty.wire !== null)).toBe(true);
  });

  it("gives business applications matching NAICS descriptions and beneficial owners among the person applications", () => {
    const sectors = new Map(naicsSectors);
    const people = new Set(objects.person_application.map((person) => person.id));
    for (const business of objects.business_application) {
      const description = String(business.naics_description);
      if (!description.startsWith("Other: ")) expect(description).toBe(sectors.get(String(business.naics)));
      else expect(business.naics).toBe("81");
      const owners = business.person_applications as Array<{ id: string; ownership_percentage: number; roles: string[] }>;
      expect(owners.every((owner) => people.has(owner.id))).toBe(true);
      expect(owners.reduce((sum, owner) => sum + owner.ownership_percentage, 0)).toBeLessThanOrEqual(100);
      expect(owners.some((owner) => owner.roles.includes("signer"))).toBe(true);
      expect(owners.some((owner) => owner.roles.includes("control_person"))).toBe(true);
    }
  });

  it("has a card for every magic suffix, each with a token in the status that suffix forces", () => {
    const magicCards = objects.card.filter((card) => forcedFulfillmentStatus(String(card.id)) !== undefined);
    expect(magicCards).toHaveLength(4);
    for (const card of magicCards) {
      const token = objects.digital_wallet_token.find((candidate) => candidate.card_id === card.id);
      expect(token?.fulfillment_status).toBe(forcedFulfillmentStatus(String(card.id)));
    }
  });

  it("writes the rows the generator gives for the same clock (same seed, same data)", () => {
    const data = generateSeedData(NOW, demoSizes.ach);
    const expectedIds = [...data.achBatches()]
      .flat()
      .map((row) => row.id)
      .sort();
    expect(objects.ach.map((ach) => ach.id).sort()).toEqual(expectedIds);
    expect(objects.person_application.map((person) => person.id).sort()).toEqual(data.rows.person_application.map((row) => row.id).sort());
  });

  it("leaves a database that already holds data alone", async () => {
    await seedDatabase(harness.ctx, "demo");
    await seedDatabase(harness.ctx, 5000);
    const { rows } = await harness.ctx.database.pool.query<{ count: string }>("SELECT count(*) FROM sandbox.ach");
    expect(Number(rows[0]?.count)).toBe(demoSizes.ach);
  });
});

describe.each(testDatabaseTargets)("seedDatabase with a number on $name", (target) => {
  // Each test seeds its own fresh database: a seed is a no-op on a database that already holds data.
  const withFreshContext = async (test: (ctx: Awaited<ReturnType<typeof createTestContext>>["ctx"]) => Promise<void>) => {
    const harness = await createTestContext(target, { now: NOW });
    try {
      await test(harness.ctx);
    } finally {
      await harness.close();
    }
  };

  it("loads nothing for the empty set", () =>
    withFreshContext(async (ctx) => {
      await seedDatabase(ctx, "empty");
      const { rows } = await ctx.database.pool.query<{ count: string }>("SELECT count(*) FROM sandbox.ach");
      expect(rows[0]?.count).toBe("0");
    }));

  it("loads that many ACH transfers with the demo set of everything else, and keeps every ACH index", () =>
    withFreshContext(async (ctx) => {
      const indexes = "SELECT indexname FROM pg_indexes WHERE schemaname = 'sandbox' AND tablename = 'ach' ORDER BY indexname";
      const before = (await ctx.database.pool.query(indexes)).rows;
      await seedDatabase(ctx, 60_000);
      const counts = await ctx.database.pool.query<{ ach: string; cards: string }>(
        "SELECT (SELECT count(*) FROM sandbox.ach) AS ach, (SELECT count(*) FROM sandbox.card) AS cards",
      );
      expect(counts.rows[0]).toEqual({ ach: "60000", cards: String(demoSizes.card) });
      expect((await ctx.database.pool.query(indexes)).rows).toEqual(before);
    }));
});
