import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/permissions";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { backfilledIndex } from "@/tests/support/indexed-sandbox";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { amountInCents } from "./document";
import { parseSearchQuery } from "./query";
import { searchAsStaff, searchLimit, type SearchHit } from "./search";

// Search finds what a caller says (docs/search.md): a counterparty's name finds the transfers with it, an amount
// without cents finds the amounts near it, a range lists the amounts in it, and a misspelt name ranks the one it
// resembles first. Each is checked against a brute-force reading of the index the demo seed was walked into, on both
// databases, as a viewer (public fields) and compliance (every field).

const key = { id: "key_search_ranking", secret: "search-ranking-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const moneyKinds = new Set(["ach", "fednow", "network_transfer"]);

describe.each(testDatabaseTargets)("search finds what a caller says, on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const search = async (q: string, role: Role) => {
    const parsed = parseSearchQuery(q);
    if (!parsed.ok) throw new Error(parsed.error);
    const actor = { id: `usr_${role}`, email: `${role}@demo.bank`, role };
    const results = await searchAsStaff(database.db, { environment: "sandbox", actor, requestId: `req_${randomUUID()}`, query: parsed.query });
    return results.groups.flatMap((group) => group.hits).sort((a, b) => b.score - a.score);
  };
  /** Every indexed object, as the index holds it: the brute force each answer is checked against. */
  let everything: { resource: string; state: Record<string, unknown>; createdAt: Date | null }[] = [];
  const ofKind = (resource: string) => everything.filter((object) => object.resource === resource).map((object) => object.state);
  const newestFirst = (a: (typeof everything)[number], b: (typeof everything)[number]) =>
    (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0) || String(a.state.id).localeCompare(String(b.state.id));

  beforeAll(async () => {
    everything = await backfilledIndex(database.db, fixture.bank);
  }, 120_000);

  describe.each(["viewer", "compliance"] as const)("as %s", (role) => {
    it("ranks a counterparty's own transfers (its newest 20), newest first, right after it for its name, saying they matched through it", async () => {
      const transfersOf = (id: unknown) => ofKind("ach").filter((transfer) => transfer.counterparty_id === id);
      // A business counterparty with transfers, named by its first two words ("Summit Media" for "Summit Media Inc.").
      const spokenOf = (candidate: Record<string, unknown>) => String(candidate.name).split(" ").slice(0, -1).join(" ");
      const counterparties = ofKind("counterparty");
      const counterparty = counterparties
        .filter((candidate) => / (Inc|LLC|Corp)\.$/.test(String(candidate.name)) && transfersOf(candidate.id).length >= 2)
        // The only counterparty the spoken name names ("Blue Ridge Media" names two of the demo's).
        .filter((candidate) => counterparties.filter((other) => spokenOf(other) === spokenOf(candidate)).length === 1)
        .sort((a, b) => transfersOf(b.id).length - transfersOf(a.id).length)[0]!;
      const name = String(counterparty.name);
      const spoken = spokenOf(counterparty);
      const expected = everything
        .filter((object) => object.resource === "ach" && object.state.counterparty_id === counterparty.id)
        .sort(newestFirst)
        .slice(0, 20)
        .map((object) => object.state.id);
      const hits = await search(spoken, role);
      // The counterparty is among the best (a business application of the same name may tie with it).
      const at = hits.findIndex((hit) => hit.id === counterparty.id);
      expect(hits[at]!.score).toBe(hits[0]!.score);
      const itsTransfers = hits.slice(at + 1, at + 1 + expected.length);
      expect(itsTransfers.map((hit) => hit.id)).toEqual(expected);
      for (const hit of itsTransfers) expect(hit.matched[0]).toEqual({ field: "counterparty", shown: name, how: "text", masked: false });
      // Any other transfer found (one whose originator shares a word with the name) ranks below every one of them.
      const others = hits.filter((hit) => hit.resource === "ach" && !expected.includes(hit.id));
      for (const other of others) expect(other.score).toBeLessThan(itsTransfers.at(-1)!.score);
    });

    it("finds the amounts within 2% of an amount written without cents, the nearest first", async () => {
      const movements = everything.filter((object) => moneyKinds.has(object.resource));
      const target = movements.find((object) => Number(object.state.amount) >= 1000 && !String(object.state.amount).endsWith(".00"))!;
      const cents = amountInCents(target.state.amount)!;
      const whole = Math.floor(cents / 100);
      for (const q of [String(whole), `$${whole.toLocaleString("en-US")}`, String(Math.round(whole / 10) * 10)]) {
        const near = Number(q.replace(/[$,]/g, "")) * 100;
        const spread = Math.round(near * 0.02);
        const distance = (object: (typeof movements)[number]) => Math.abs(amountInCents(object.state.amount)! - near);
        const within = movements.filter((object) => distance(object) <= spread);
        const hits = (await search(q, role)).filter((hit) => hit.matched.some((match) => match.how === "amount"));
        // Every one within 2% is found when there are few (at most 20 above it and 20 below, the nearest).
        expect(within.length).toBeLessThanOrEqual(20);
        expect(hits.map((hit) => hit.id).sort()).toEqual(within.map((object) => object.state.id).sort());
        expect(hits.map((hit) => hit.id)).toContain(target.state.id);
        const distances = hits.map((hit) => Math.abs(amountInCents(hit.amount)! - near));
        expect(distances).toEqual([...distances].sort((a, b) => a - b));
      }
    });

    it.each([
      [">1000", (cents: number) => cents > 100000],
      ["1000..1500", (cents: number) => cents >= 100000 && cents <= 150000],
      ["<50", (cents: number) => cents < 5000],
      ["amount:>=5000", (cents: number) => cents >= 500000],
    ])("lists the money movements in the range %s, newest first", async (q, inRange) => {
      const expected = everything
        .filter((object) => moneyKinds.has(object.resource) && inRange(amountInCents(object.state.amount) ?? -1))
        .sort(newestFirst)
        .slice(0, searchLimit)
        .map((object) => object.state.id);
      expect(expected.length).toBeGreaterThan(0);
      const hits = await search(q, role);
      // The newest 50 in the range, shown grouped by kind (each group newest first).
      expect(hits.map((hit) => hit.id).sort()).toEqual([...expected].sort());
      for (const kind of moneyKinds) {
        const times = hits.filter((hit) => hit.resource === kind).map((hit) => hit.createdAt!);
        expect(times).toEqual([...times].sort().reverse());
      }
      for (const hit of hits) expect(hit.matched).toEqual([{ field: "amount", shown: hit.amount, how: "amount", masked: false }]);
    });

    it("narrows words by a range written beside them", async () => {
      const originator = String(ofKind("ach").find((transfer) => typeof transfer.originator_name === "string")!.originator_name);
      const hits = await search(`${originator} >2000`, role);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(amountInCents(hit.amount)).toBeGreaterThan(200000);
      const expected = ofKind("ach").filter((transfer) => transfer.originator_name === originator && amountInCents(transfer.amount)! > 200000);
      expect(hits.map((hit) => hit.id)).toEqual(expect.arrayContaining(expected.slice(0, 10).map((transfer) => transfer.id)));
    });

    it("ranks the person a misspelt name resembles first, and shows nothing that does not resemble it", async () => {
      // A person's name whose first name loses a letter ("Tomas Smith" for Thomas Smith).
      const counterparty = ofKind("counterparty").find((candidate) => /^[A-Z][a-z]{5,} [A-Z][a-z]+$/.test(String(candidate.name)))!;
      const [first, last] = String(counterparty.name).split(" ") as [string, string];
      const misspelt = `${first.slice(0, 1)}${first.slice(2)} ${last}`;
      const hits: SearchHit[] = await search(misspelt, role);
      expect(hits[0]!.id).toBe(counterparty.id);
      expect(hits[0]!.matched.map((match) => match.field)).toContain("name");
      for (const hit of hits) expect(hit.matched.length).toBeGreaterThan(0);
      // What is shown is the person, their transfers, or something whose own text resembles a word of the query.
      for (const hit of hits.filter((found) => found.resource === "deposit_sweep"))
        expect(hit.matched.some((match) => match.how !== "id")).toBe(true);
    });
  });
});
