import { beforeAll, describe, expect, it } from "vitest";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { createApiRoute } from "@/lib/api/route";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { backfilledIndex } from "@/tests/support/indexed-sandbox";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { businessLinks, changesLimit, personLinks } from "./links";
import { customerLinksRoute } from "./routes";

// A person's and a business's view (docs/console-pages.md): what the index links to a person or business
// application, against a brute-force reading of every indexed object of the demo seed, on both databases.

const key = { id: "key_customer_links", secret: "customer-links-secret-0123456789" };
const fixture = sandboxBankForFile(key);

describe.each(testDatabaseTargets)("what the index links to a person or a business, on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let everything: { id: string; resource: string; state: Record<string, unknown> }[] = [];
  const ofKind = (resource: string) => everything.filter((object) => object.resource === resource);
  const sorted = (ids: unknown[]) => ids.map(String).sort();

  beforeAll(async () => {
    everything = await backfilledIndex(database.db, fixture.bank);
  }, 120_000);

  it("links a person application to its person's cards and deposit sweeps, their accounts, and the businesses naming it", async () => {
    const cardsOf = (person: unknown) => ofKind("card").filter((card) => card.state.person_id === person);
    const application = ofKind("person_application").find((object) => object.state.person_id && cardsOf(object.state.person_id).length > 0)!;
    const person = application.state.person_id;
    const links = (await personLinks(database.db, "sandbox", application.id))!;
    const cards = cardsOf(person);
    const sweeps = ofKind("deposit_sweep").filter((sweep) => sweep.state.customer_id === person);
    const businesses = ofKind("business_application").filter((business) =>
      (business.state.person_applications as Array<{ id: string }>).some((owner) => owner.id === application.id),
    );
    expect(links.personId).toBe(person);
    expect(sorted(links.cards.map((card) => card.id))).toEqual(sorted(cards.map((card) => card.id)));
    expect(sorted(links.depositSweeps.map((sweep) => sweep.id))).toEqual(sorted(sweeps.map((sweep) => sweep.id)));
    expect(sorted(links.businesses.map((business) => business.id))).toEqual(sorted(businesses.map((business) => business.id)));
    expect(sorted(links.accountIds)).toEqual(sorted([...new Set([...cards, ...sweeps].map((object) => object.state.account_id))]));
    // Shown as every page shows them: a cardholder's name, never a masked field.
    expect(links.cards[0]!.name).toBe(String(cards.find((card) => card.id === links.cards[0]!.id)!.state.cardholder_name));
    // The index's versions of those objects, newest first.
    expect(links.changes.length).toBeGreaterThan(0);
    expect(links.changes.length).toBeLessThanOrEqual(changesLimit);
    const linked = new Set([application.id, ...cards.map((card) => card.id), ...sweeps.map((sweep) => sweep.id), ...businesses.map((b) => b.id)]);
    expect(links.changes.every((change) => linked.has(change.id))).toBe(true);
    const seen = links.changes.map((change) => change.seenAt);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("links nothing but its own changes to a person application that created no person yet", async () => {
    const application = ofKind("person_application").find((object) => object.state.person_id === null)!;
    const links = (await personLinks(database.db, "sandbox", application.id))!;
    expect(links).toMatchObject({ personId: null, cards: [], depositSweeps: [], accountIds: [] });
    expect(links.changes.every((change) => change.id === application.id || change.resource === "business_application")).toBe(true);
  });

  it("links a business application to its owners' applications, with their roles, shares and persons, in its order", async () => {
    const business = ofKind("business_application").find((object) => (object.state.person_applications as unknown[]).length > 1)!;
    const listed = business.state.person_applications as Array<{ id: string; roles: string[]; ownership_percentage: number }>;
    const links = (await businessLinks(database.db, "sandbox", business.id))!;
    const held = listed.filter((owner) => everything.some((object) => object.id === owner.id));
    expect(links.owners.map((owner) => owner.id)).toEqual(held.map((owner) => owner.id));
    for (const [at, owner] of links.owners.entries()) {
      const application = everything.find((object) => object.id === owner.id)!.state;
      expect(owner).toMatchObject({
        roles: held[at]!.roles,
        ownership: held[at]!.ownership_percentage,
        personId: application.person_id,
        name: `${String(application.first_name)} ${String(application.last_name)}`,
      });
    }
  });

  it("is null for an application the index does not hold", async () => {
    expect(await personLinks(database.db, "sandbox", "apsn_notheldanywhere")).toBeNull();
    expect(await businessLinks(database.db, "sandbox", "abus_notheldanywhere")).toBeNull();
  });

  describe("GET /api/customer/{id}/links", () => {
    const route = customerLinksRoute({ activeEnvironment: async () => "sandbox", db: async () => database.db });
    const call = (user: StaffUser | null, id: string, query = "", headers: Record<string, string> = {}) =>
      createApiRoute({ currentUser: async () => user, log: createLogger({ level: "silent" }) })(route)(
        new Request(`http://console.test/api/customer/${id}/links${query}`, { headers }),
        { params: Promise.resolve({ id }) },
      );
    const viewer: StaffUser = { id: "stf_links_viewer", email: "viewer@demo.bank", name: "viewer", role: "viewer", locked: false };

    it("answers a person's and a business's links with what the index is", async () => {
      resetRateLimits();
      const person = await call(viewer, ofKind("person_application")[0]!.id);
      expect(person.status).toBe(200);
      expect(await person.json()).toMatchObject({ kind: "person", index: { complete: true } });
      const business = await call(viewer, ofKind("business_application")[0]!.id);
      expect(await business.json()).toMatchObject({ kind: "business", owners: expect.any(Array) });
    });

    it("is a 401 signed out, a 403 when another site's page asks, a 400 naming what is wrong, a 404 for one not held, never a 5xx", async () => {
      resetRateLimits();
      expect((await call(null, "apsn_abc")).status).toBe(401);
      expect((await call(viewer, "apsn_abc", "", { "sec-fetch-site": "cross-site" })).status).toBe(403);
      for (const [id, query, message] of [
        ["cp_abc", "", "id: expected a person application id"],
        ["apsn_a b", "", "id: expected a person application id"],
        ["apsn_abc", "?page_cursor=x", "page_cursor"],
      ] as const) {
        const response = await call(viewer, id, query);
        expect(response.status, `${id}${query}`).toBe(400);
        expect(JSON.stringify(await response.json())).toContain(message);
      }
      const missing = await call(viewer, "abus_notheldanywhere");
      expect(missing.status).toBe(404);
      expect(JSON.stringify(await missing.json())).toContain("holds no application abus_notheldanywhere");
    });
  });
});
