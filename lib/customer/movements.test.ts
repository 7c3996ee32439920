import { beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { backfilledIndex } from "@/tests/support/indexed-sandbox";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { createApiRoute } from "@/lib/api/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { StaffUser } from "@/lib/auth/staff-user";
import { customerRoute } from "./routes";
import { customerMovements, customerTotals, indexFreshness, readCursor, unsettledStatuses } from "./movements";

// A customer's view from the console's index (docs/search.md, "A customer's movements"): the movements naming a
// counterparty, page after page, and its 30-day totals, each against a brute-force reading of every indexed object,
// on both databases.

const key = { id: "key_customer_view", secret: "customer-view-secret-0123456789" };
const fixture = sandboxBankForFile(key);

describe.each(testDatabaseTargets)("a customer's movements from the index, on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let everything: { id: string; resource: string; state: Record<string, unknown>; createdAt: Date }[] = [];
  const naming = (counterpartyId: string) =>
    everything
      .filter((object) => object.resource !== "counterparty" && object.state.counterparty_id === counterpartyId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  const busiest = () =>
    everything
      .filter((object) => object.resource === "counterparty")
      .map((object) => object.id)
      .sort((a, b) => naming(b).length - naming(a).length)[0]!;

  beforeAll(async () => {
    everything = (await backfilledIndex(database.db, fixture.bank)).flatMap((object) =>
      object.createdAt ? [{ ...object, createdAt: object.createdAt }] : [],
    );
  }, 120_000);

  it("walks every movement naming the counterparty, newest first, page after page, status, amount, date and direction as shown", async () => {
    const counterpartyId = busiest();
    const expected = naming(counterpartyId);
    expect(expected.length).toBeGreaterThan(3);
    const walked: Awaited<ReturnType<typeof customerMovements>>["data"] = [];
    let cursor: string | null = null;
    do {
      const page = await customerMovements(database.db, "sandbox", counterpartyId, { cursor: cursor ? readCursor(cursor) : null, pageSize: 3 });
      expect(page.data.length).toBeLessThanOrEqual(3);
      walked.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked.map((movement) => movement.id)).toEqual(expected.map((object) => object.id));
    for (const [at, movement] of walked.entries()) {
      const state = expected[at]!.state;
      expect(movement).toEqual({
        id: state.id,
        resource: expected[at]!.resource,
        status: state.status,
        amount: state.amount,
        direction: state.direction === "debit" ? "in" : "out",
        createdAt: state.created_at,
      });
    }
  });

  it("gives nothing for a counterparty no movement names, and refuses a cursor it did not write", async () => {
    expect(await customerMovements(database.db, "sandbox", "cp_nobodyatall")).toEqual({ data: [], nextCursor: null });
    for (const cursor of ["", "x|y", "2026-01-01|ach_1", "2026-01-01T00:00:00Z|ach 1", "2026-01-01T00:00:00Z"]) expect(readCursor(cursor)).toBeNull();
    expect(readCursor("2026-01-01T00:00:00.123456Z|ach_1")).toEqual({ createdAt: "2026-01-01T00:00:00.123456Z", id: "ach_1" });
  });

  it("totals the money in and out over the last 30 days, leaving out what did not move", async () => {
    const counterpartyId = busiest();
    const movements = naming(counterpartyId);
    // "Now" a little after its newest movement, so the 30 days hold some of them.
    const now = new Date(movements[0]!.createdAt.getTime() + 24 * 3600 * 1000);
    const since = now.getTime() - 30 * 24 * 3600 * 1000;
    const counted = movements.filter((object) => object.createdAt.getTime() >= since && !unsettledStatuses.includes(String(object.state.status)));
    expect(counted.length).toBeGreaterThan(0);
    const cents = (object: (typeof movements)[number]) => Math.round(Number(object.state.amount) * 100);
    const sum = (direction: string) =>
      counted.filter((object) => object.state.direction === direction).reduce((total, object) => total + cents(object), 0);
    expect(await customerTotals(database.db, "sandbox", counterpartyId, now)).toEqual({
      inCents: sum("debit"),
      outCents: sum("credit"),
      count: counted.length,
      since: new Date(since).toISOString(),
    });
    const freshness = await indexFreshness(database.db, "sandbox");
    expect(freshness.complete).toBe(true);
    expect(freshness.lastChange).not.toBeNull();
  });

  describe("GET /api/customer/{id}", () => {
    const route = customerRoute({ activeEnvironment: async () => "sandbox", db: async () => database.db });
    const call = (user: StaffUser | null, id: string, query = "", headers: Record<string, string> = {}) =>
      createApiRoute({ currentUser: async () => user, log: createLogger({ level: "silent" }) })(route)(
        new Request(`http://console.test/api/customer/${id}${query}`, { headers }),
        { params: Promise.resolve({ id }) },
      );
    const viewer: StaffUser = { id: "stf_customer_viewer", email: "viewer@demo.bank", name: "viewer", role: "viewer", locked: false };

    it("answers a page of movements with the totals and the index's freshness, and the next page through page_next", async () => {
      resetRateLimits();
      const counterpartyId = busiest();
      const first = await call(viewer, counterpartyId);
      expect(first.status).toBe(200);
      const body = (await first.json()) as { data: { id: string }[]; page_next?: string; totals: unknown; index: { complete: boolean } };
      expect(body.data.map((row) => row.id)).toEqual(
        naming(counterpartyId)
          .slice(0, 10)
          .map((object) => object.id),
      );
      expect(body.totals).toMatchObject({ inCents: expect.any(Number), outCents: expect.any(Number) });
      expect(body.index.complete).toBe(true);
      if (naming(counterpartyId).length > 10) {
        const next = await call(viewer, counterpartyId, `?${new URLSearchParams({ page_cursor: body.page_next! })}`);
        expect(((await next.json()) as { data: { id: string }[] }).data[0]!.id).toBe(naming(counterpartyId)[10]!.id);
      }
    });

    it("is a 401 signed out, a 403 when another site's page asks, a 400 naming what is wrong, never a 5xx", async () => {
      resetRateLimits();
      expect((await call(null, "cp_abc")).status).toBe(401);
      expect((await call(viewer, "cp_abc", "", { "sec-fetch-site": "cross-site" })).status).toBe(403);
      for (const [id, query, message] of [
        ["ach_abc", "", "id: expected a counterparty id"],
        ["cp_abc", "?page_cursor=nope", "page_cursor: not a cursor of this list"],
        ["cp_abc", "?status=sent", "status"],
        ["cp_abc", `?page_cursor=${"9".repeat(300)}`, "page_cursor: at most 200 characters"],
      ] as const) {
        const response = await call(viewer, id, query);
        expect(response.status, `${id}${query}`).toBe(400);
        expect(JSON.stringify(await response.json())).toContain(message);
      }
    });
  });
});
