import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListedResource } from "@/lib/contract/operations";
import * as schema from "@/lib/db/console-schema";
import { runBackfill } from "@/lib/index/backfill";
import { recordObservations } from "@/lib/index/store";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { namesOf } from "./names-lookup";
import { parseSearchQuery } from "./query";
import { searchAsStaff, searchLimit, type SearchResults } from "./search";

// The search over the index, built by walking the sandbox bank (demo seed) into a real console database, on both
// databases: each kind of query finds the object it names first or among the first three, and no role matches a
// field it would see masked.

const key = { id: "key_search_test", secret: "search-test-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const log = createLogger({ level: "silent" });

const actorOf = (role: Role) => ({ id: `usr_${role}`, email: `${role}@demo.bank`, role });
const ids = (results: SearchResults) => results.groups.flatMap((group) => group.hits.map((hit) => hit.id));
/** Hits best first across groups (groups keep their best hit's order). */
const ranked = (results: SearchResults) =>
  results.groups
    .flatMap((group) => group.hits)
    .sort((a, b) => b.score - a.score)
    .map((hit) => hit.id);

describe.each(testDatabaseTargets)("the search over the index on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const search = async (q: string, role: Role = "viewer") => {
    const parsed = parseSearchQuery(q);
    if (!parsed.ok) throw new Error(parsed.error);
    return searchAsStaff(database.db, { environment: "sandbox", actor: actorOf(role), requestId: `req_${randomUUID()}`, query: parsed.query });
  };
  const objects = async (resource: ListedResource) =>
    (
      await database.db
        .select()
        .from(schema.bankObjects)
        .where(and(eq(schema.bankObjects.environment, "sandbox"), eq(schema.bankObjects.resource, resource)))
    )
      .map((row) => row.state as Record<string, unknown> | null)
      // The seed's objects only: not those this file's own tests write (`<prefix>search_…`, or deleted).
      .filter((state): state is Record<string, unknown> => state !== null && !String(state.id).includes("_search_"))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  /** How many documents hold `text` in the given part (to pick objects a query can name without ambiguity). */
  const holding = async (text: string, column: "public_text" | "personal_text") =>
    Number(
      (
        await database.db.execute<{ n: string }>(
          sql`SELECT count(*) AS n FROM ${schema.bankSearch} WHERE environment = 'sandbox' AND ${sql.raw(column)} ILIKE ${`%${text}%`}`,
        )
      ).rows[0]!.n,
    );
  const expectAmongFirstThree = (results: SearchResults, id: string) => expect(ranked(results).slice(0, 3)).toContain(id);

  beforeAll(async () => {
    const result = await runBackfill({ db: database.db, client: fixture.bank, environment: "sandbox", pageSize: 500, pagesPerSecond: 0, log });
    expect(result).toBeDefined();
  }, 120_000);

  it("finds an object by its id, with blanks around it, and as a pasted console or bank URL", async () => {
    const [ach] = await objects("ach");
    const id = String(ach!.id);
    for (const q of [
      id,
      `   ${id} `,
      `http://localhost:3000/ach/${id}`,
      `${fixture.sandbox.url}/ach/${id}`,
      `https://console.example/ach/${id}/timeline?tab=events`,
    ]) {
      const results = await search(q);
      expect(ranked(results)[0]).toBe(id);
      expect(results.groups[0]!.hits[0]!.matched[0]).toEqual({ field: "id", shown: id, how: "id", masked: false });
    }
  });

  it("finds the objects naming an id, whole or by its start, beside the object itself", async () => {
    const ach = (await objects("ach")).find((transfer) => typeof transfer.counterparty_id === "string")!;
    const counterpartyId = String(ach.counterparty_id);
    for (const q of [counterpartyId, counterpartyId.slice(0, "cp_".length + 8)]) {
      const found = ids(await search(q));
      expect(found).toContain(counterpartyId);
      expect(found).toContain(ach.id);
    }
  });

  it("ranks a query that matches hundreds of objects: the best first, as many as a search shows", async () => {
    expect(await holding("ach_", "public_text")).toBeGreaterThan(200);
    const results = await search("ach");
    expect(results.total).toBe(searchLimit);
    for (const group of results.groups) {
      const scores = group.hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
    // The same query narrowed to one transfer's id ranks that transfer first, as a list of few ids.
    const [ach] = await objects("ach");
    expect(ranked(await search(String(ach!.id)))[0]).toBe(ach!.id);
  });

  it("finds a transfer by its amount written in any common form", async () => {
    const transfers = await objects("ach");
    const amounts = new Map<string, number>();
    for (const transfer of [...transfers, ...(await objects("fednow")), ...(await objects("network_transfer"))])
      amounts.set(String(transfer.amount), (amounts.get(String(transfer.amount)) ?? 0) + 1);
    // An amount no other object has, of at least 1,000.00 so the comma form differs, ending in 0 cents' tenth if any.
    const ach = transfers.find((transfer) => amounts.get(String(transfer.amount)) === 1 && Number(transfer.amount) >= 1000)!;
    const amount = String(ach.amount);
    const [whole, cents] = amount.split(".") as [string, string];
    const withCommas = `${Number(whole).toLocaleString("en-US")}.${cents}`;
    for (const q of [amount, withCommas, `$${withCommas}`, `$ ${amount}`]) {
      const results = await search(q);
      expect(ranked(results)[0]).toBe(ach.id);
      expect(results.groups[0]!.hits[0]!.matched).toContainEqual({ field: "amount", shown: amount, how: "amount", masked: false });
    }
    if (cents.endsWith("0")) expect(ranked(await search(`${whole}.${cents[0]}`))[0]).toBe(ach.id);
  });

  it("takes a first keystroke as a whole word, and two or more characters as the start of one", async () => {
    const id = `cp_search_${randomUUID().slice(0, 8)}`;
    await recordObservations(
      database.db,
      "sandbox",
      // Created after everything else: among equally good hits the newest comes first, so a match would be shown.
      [
        {
          resource: "counterparty",
          id,
          state: { id, name: "Quokkaline Freight", created_at: "2099-01-01T00:00:00Z", updated_at: "2099-01-01T00:00:00Z" },
        },
      ],
      { source: "sweep" },
    );
    // One letter as a prefix stands for a good part of every object (the cost is in docs/search.md, "Broad queries").
    expect(ids(await search("q"))).not.toContain(id);
    expectAmongFirstThree(await search("quokkal"), id);
    // "fr": two characters, the start of "Freight".
    expect(ranked(await search("quokkaline fr"))[0]).toBe(id);
  });

  it("finds a counterparty by its name, by part of it, and misspelt", async () => {
    const counterparties = await objects("counterparty");
    let chosen: Record<string, unknown> | undefined;
    for (const counterparty of counterparties) {
      const name = String(counterparty.name);
      if (name.length >= 10 && (await holding(name, "public_text")) === 1) {
        chosen = counterparty;
        break;
      }
    }
    const name = String(chosen!.name);
    expectAmongFirstThree(await search(name), String(chosen!.id));
    expectAmongFirstThree(await search(name.toLowerCase()), String(chosen!.id));
    // A typo: two letters of the longest word swapped.
    const longest = name.split(" ").sort((a, b) => b.length - a.length)[0]!;
    const typo = `${longest.slice(0, 2)}${longest[3]}${longest[2]}${longest.slice(4)}`;
    const misspelt = await search(name.replace(longest, typo));
    expectAmongFirstThree(misspelt, String(chosen!.id));
    expect(
      misspelt.groups
        .flatMap((group) => group.hits)
        .find((hit) => hit.id === chosen!.id)!
        .matched.map((match) => match.field),
    ).toContain("name");
  });

  it("finds a name with a typo in each of its words", async () => {
    // Two words of five or six letters (`Dmitri Miller`): one letter less leaves too few shared trigrams for
    // pg_trgm's default threshold, whether the query is taken whole or word by word.
    const shortWords = (name: string) => name.split(" ").every((word) => word.length >= 5 && word.length <= 6);
    let chosen: Record<string, unknown> | undefined;
    for (const counterparty of await objects("counterparty")) {
      const name = String(counterparty.name);
      if (name.split(" ").length === 2 && shortWords(name) && (await holding(name, "public_text")) === 1) {
        chosen = counterparty;
        break;
      }
    }
    const name = String(chosen!.name);
    // A letter left out of the middle of every long word: no word matches as typed, each is close to one that does.
    const misspelt = name
      .split(" ")
      .map((word) => (word.length > 4 ? word.slice(0, word.length >> 1) + word.slice((word.length >> 1) + 1) : word))
      .join(" ");
    const results = await search(misspelt);
    expectAmongFirstThree(results, String(chosen!.id));
    const hit = results.groups.flatMap((group) => group.hits).find((found) => found.id === chosen!.id)!;
    expect(hit.matched.map((match) => match.field)).toContain("name");
  });

  it("finds an ACH transfer by its trace number and an instant payment by its memo", async () => {
    const [ach] = await objects("ach");
    const trace = await search(String(ach!.trace_number));
    expect(ranked(trace)[0]).toBe(ach!.id);
    expect(trace.groups[0]!.hits[0]!.matched).toContainEqual({ field: "trace_number", shown: ach!.trace_number, how: "text", masked: false });

    const fednow = (await objects("fednow")).find((payment) => typeof payment.memo === "string")!;
    const memo = await search(String(fednow.memo));
    expectAmongFirstThree(memo, String(fednow.id));
  });

  it("finds a card by its last four, and a counterparty by the last four of its account number", async () => {
    let card: Record<string, unknown> | undefined;
    for (const candidate of await objects("card")) {
      if ((await holding(String(candidate.last_four), "public_text")) === 1) {
        card = candidate;
        break;
      }
    }
    expectAmongFirstThree(await search(String(card!.last_four)), String(card!.id));

    let counterparty: Record<string, unknown> | undefined;
    for (const candidate of await objects("counterparty")) {
      const number = (candidate.ach as { account_number?: string } | null)?.account_number;
      if (number && (await holding(number.slice(-4), "public_text")) === 1) {
        counterparty = candidate;
        break;
      }
    }
    const lastFour = (counterparty!.ach as { account_number: string }).account_number.slice(-4);
    const results = await search(lastFour);
    expectAmongFirstThree(results, String(counterparty!.id));
    // Shown as the viewer sees it: the full number stays masked.
    const hit = results.groups.flatMap((group) => group.hits).find((candidate) => candidate.id === counterparty!.id)!;
    expect(JSON.stringify(hit)).not.toContain((counterparty!.ach as { account_number: string }).account_number);
  });

  it("matches a masked email or SSN last four only for a role that may reveal personal data, and audits that search", async () => {
    const applications = await objects("person_application");
    const person = applications.find((application) => typeof application.email_address === "string" && application.secondary_email_address === null)!;
    const email = String(person.email_address);

    const viewer = await search(email, "viewer");
    expect(ids(viewer)).toEqual([]);
    const operations = await search(email, "operations");
    expect(ids(operations)).toEqual([]);

    const reviewer = await search(email, "compliance");
    expect(ranked(reviewer)[0]).toBe(person.id);
    const hit = reviewer.groups[0]!.hits[0]!;
    // The value itself is shown masked: it stays behind the audited reveal.
    expect(hit.matched).toContainEqual({
      field: "email_address",
      shown: `${email[0]}***${email.slice(email.indexOf("@"))}`,
      how: "text",
      masked: true,
    });
    const [record] = await database.db
      .select()
      .from(schema.auditRecords)
      .where(
        and(
          eq(schema.auditRecords.action, "search.masked_fields"),
          eq(schema.auditRecords.role, "compliance"),
          sql`${schema.auditRecords.before}->>'query' = ${email}`,
        ),
      );
    expect(record).toMatchObject({
      actorId: "usr_compliance",
      role: "compliance",
      environment: "sandbox",
      outcome: "succeeded",
      before: { query: email },
      after: { results: reviewer.total, matchedInMaskedFields: [{ id: person.id, fields: ["email_address"] }] },
    });

    // An SSN's last four held by no other object, in any part.
    let ssnHolder: Record<string, unknown> | undefined;
    for (const application of applications) {
      const number = application.identification_number;
      if (application.identification_number_type !== "ssn" || typeof number !== "string") continue;
      const lastFour = number.slice(-4);
      if ((await holding(lastFour, "public_text")) === 0 && (await holding(lastFour, "personal_text")) === 1) {
        ssnHolder = application;
        break;
      }
    }
    const lastFour = String(ssnHolder!.identification_number).slice(-4);
    // Four digits are also dollars: a viewer finds the amounts near them, and nothing else.
    const byViewer = (await search(lastFour, "viewer")).groups.flatMap((group) => group.hits);
    expect(byViewer.filter((hit) => hit.matched.some((match) => match.how !== "amount"))).toEqual([]);
    const found = await search(lastFour, "compliance");
    expect(ranked(found)[0]).toBe(ssnHolder!.id);
    expect(found.groups[0]!.hits[0]!.matched[0]).toMatchObject({ field: "identification_number", how: "text", masked: true });
    expect(JSON.stringify(found)).not.toContain(String(ssnHolder!.identification_number));
  });

  it("matches and shows userdata only in the kinds whose userdata the role sees unmasked, by the proxy's table (lib/pii.ts)", async () => {
    const suffix = randomUUID().slice(0, 8);
    // Nothing of the ids in it: an id's parts are searchable by every role.
    const ticket = `ZEBRA-${randomUUID().slice(0, 8)}`;
    const stamp = { created_at: "2025-01-01T00:00:00Z", updated_at: "2025-01-01T00:00:00Z" };
    const transfer = `nt_search_${suffix}`;
    const counterparty = `cp_search_${suffix}`;
    const person = `apsn_search_${suffix}`;
    await recordObservations(
      database.db,
      "sandbox",
      [
        { resource: "network_transfer", id: transfer, state: { id: transfer, status: "pending", userdata: { ticket }, ...stamp } },
        {
          resource: "counterparty",
          id: counterparty,
          state: { id: counterparty, name: "Userdata Test Vendor", userdata: { case_ref: ticket }, ...stamp },
        },
        // Every page masks a person application's userdata for operations (they edit a transfer's only).
        { resource: "person_application", id: person, state: { id: person, first_name: "Userdata", userdata: { referral: ticket }, ...stamp } },
      ],
      { source: "sweep" },
    );
    const byId = (results: SearchResults) => new Map(results.groups.flatMap((group) => group.hits).map((hit) => [hit.id, hit.matched]));

    expect(ids(await search(ticket, "viewer"))).toEqual([]);
    const operations = await search(ticket, "operations");
    expect(ids(operations)).toEqual([transfer]);
    expect(byId(operations).get(transfer)).toEqual([{ field: "userdata.ticket", shown: ticket, how: "text", masked: true }]);
    // Nor does a query matching the application otherwise show its userdata to operations.
    const named = byId(await search(`Userdata ${ticket}`, "operations"));
    expect(named.has(person)).toBe(false);
    expect(JSON.stringify([...named])).not.toContain("referral");
    for (const role of ["compliance", "admin"] as const) {
      const results = byId(await search(ticket, role));
      expect([...results.keys()].sort()).toEqual([person, counterparty, transfer].sort());
      expect(results.get(person)).toEqual([{ field: "userdata.referral", shown: ticket, how: "text", masked: true }]);
      expect(results.get(counterparty)).toEqual([{ field: "userdata.case_ref", shown: ticket, how: "text", masked: true }]);
    }
    // A viewer's search leaves no audit record; a role searching masked fields leaves one per search.
    const records = await database.db
      .select()
      .from(schema.auditRecords)
      .where(sql`${schema.auditRecords.before}->>'query' = ${ticket}`);
    expect(records.map((record) => record.role).sort()).toEqual(["admin", "compliance", "operations"]);
    expect(records.find((record) => record.role === "operations")!.after).toEqual({
      results: 1,
      matchedInMaskedFields: [{ id: transfer, fields: ["userdata.ticket"] }],
    });
  });

  it("keeps a search document equal to the object's latest state, and drops it when the bank deleted the object", async () => {
    const id = `cp_search_${randomUUID().slice(0, 8)}`;
    const observe = (state: Record<string, unknown> | null) =>
      recordObservations(database.db, "sandbox", [{ resource: "counterparty", id, state }], { source: "sweep" });
    const before = `Quokkavale ${id.slice(-8)}`;
    const after = "Marmotfern Jubilee";
    await observe({ id, name: before, updated_at: "2025-01-01T00:00:00Z" });
    expect(ids(await search(before))).toEqual([id]);
    await observe({ id, name: after, updated_at: "2025-01-01T00:00:01Z" });
    expect(ids(await search(before))).toEqual([]);
    expect(ids(await search(after))).toEqual([id]);
    await observe(null);
    expect(ids(await search(after))).toEqual([]);
  });

  it("knows the names beside ids: a counterparty's name, a card's holder; unknown ids are left out", async () => {
    const [counterparty] = await objects("counterparty");
    const [card] = await objects("card");
    expect(await namesOf(database.db, "sandbox", [String(counterparty!.id), String(card!.id), "cp_not_in_the_index"])).toEqual({
      [String(counterparty!.id)]: counterparty!.name,
      [String(card!.id)]: card!.cardholder_name,
    });
  });
});
