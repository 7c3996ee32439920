import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { createApiRoute } from "@/lib/api/route";
import type { StaffUser } from "@/lib/auth/staff-user";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { filterControls } from "@/lib/resources/filters";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { backfilledIndex } from "@/tests/support/indexed-sandbox";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { parseIndexListQuery } from "./index-list-input";
import { listFromIndex } from "./index-list";
import { maskedFilters } from "./masked-filters";
import { parseNameFilter } from "./name-filter";
import { resolveName, resolveNameRoute } from "./resolve-names";

// Names in filters (docs/search.md, "Names in filters"): a list of objects with names filters by a name from the index,
// and an id filter takes a name, resolved to ids through the search. Each checked against a brute-force reading of the
// index the demo seed was walked into, on both databases.

const key = { id: "key_names_in_filters", secret: "names-in-filters-secret-0123456789" };
const fixture = sandboxBankForFile(key);

describe("which filters take names", () => {
  it("an id filter of a kind the index names (counterparty, card, person) takes a name; accounts, banks and organizations do not", () => {
    const names = (resource: Parameters<typeof filterControls>[0]) =>
      Object.fromEntries(filterControls(resource).flatMap((filter) => (filter.kind === "text" ? [[filter.name, filter.names ?? null]] : [])));
    expect(names("ach")).toMatchObject({ counterparty_id: "counterparty", account_id: null, org_id: null });
    expect(names("digital_wallet_token")).toMatchObject({ card_id: "card" });
    expect(names("person_application")).toMatchObject({ person_id: "person" });
    expect(names("fednow")).toMatchObject({ account_id: null, bank_id: null });
  });

  it("the name filter is a list's of objects with names, refused elsewhere and for text no database can hold, naming the parameter", () => {
    expect(parseNameFilter("counterparty", "  Summit   Media ")).toEqual({ ok: true, words: ["Summit", "Media"], fields: ["name"] });
    expect(parseNameFilter("ach", "Summit")).toMatchObject({ ok: false, error: expect.stringContaining("name: this list's objects have no name") });
    expect(parseNameFilter("counterparty", "x".repeat(101))).toMatchObject({ ok: false, error: "name: at most 100 characters" });
    expect(parseNameFilter("counterparty", "a\u0000b")).toMatchObject({ ok: false, error: expect.stringContaining("name: must not contain NUL") });
    expect(parseNameFilter("counterparty", "   ")).toMatchObject({ ok: false, error: "name: give at least one word of the name" });
    expect(parseIndexListQuery("webhook", { name: "x" })).toMatchObject({ ok: false, error: expect.stringContaining("name:") });
  });

  it("a name compares only fields every role sees (names are shown in full), so no role is refused it", () => {
    for (const role of ["viewer", "operations", "compliance", "admin"] as Role[]) {
      for (const resource of ["counterparty", "person_application", "business_application", "card"] as const) {
        expect(maskedFilters(resource, role, { name: "Smith" })).toEqual({ refused: [], unmasked: {} });
      }
    }
  });
});

describe.each(testDatabaseTargets)("names in filters, on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let everything: { id: string; resource: string; state: Record<string, unknown>; createdAt: Date }[] = [];
  const ofKind = (resource: string) => everything.filter((object) => object.resource === resource);
  const nameOf = (state: Record<string, unknown>) =>
    [state.name, state.dba, state.first_name, state.last_name, state.cardholder_name].filter((part) => typeof part === "string").join(" ");
  const actor = (role: Role) => ({ id: `usr_names_${role}`, email: `${role}@demo.bank`, role });

  beforeAll(async () => {
    everything = (await backfilledIndex(database.db, fixture.bank)).flatMap((object) =>
      object.createdAt ? [{ ...object, createdAt: object.createdAt }] : [],
    );
  }, 120_000);

  const walk = async (resource: "counterparty" | "person_application", query: Record<string, string>) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const parsed = parseIndexListQuery(resource, { ...query, page_size: "5", ...(cursor && { page_cursor: cursor }) });
      if (!parsed.ok) throw new Error(parsed.error);
      const page = await listFromIndex(database.db, "sandbox", resource, parsed.page);
      ids.push(...page.data.map((row) => String(row.id)));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  };

  it("lists the counterparties whose name holds every word, in any case, newest first, page after page", async () => {
    const counterparties = ofKind("counterparty");
    const word = String(counterparties[0]!.state.name).split(" ")[0]!;
    for (const typed of [word, word.toUpperCase(), `${word.toLowerCase()} ${String(counterparties[0]!.state.name).split(" ").at(-1)}`]) {
      const words = typed.toLowerCase().split(" ");
      const expected = counterparties
        .filter((object) => words.every((part) => nameOf(object.state).toLowerCase().includes(part)))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
        .map((object) => object.id);
      expect(expected.length, typed).toBeGreaterThan(0);
      expect(await walk("counterparty", { name: typed })).toEqual(expected);
    }
    expect(await walk("counterparty", { name: "zzqx-nobody" })).toEqual([]);
  });

  it("lists person applications by first and last name together, a name's % and _ taken as themselves", async () => {
    const person = ofKind("person_application")[0]!.state;
    const typed = `${String(person.first_name)} ${String(person.last_name)}`;
    const expected = ofKind("person_application")
      .filter((object) => nameOf(object.state).toLowerCase().includes(String(person.first_name).toLowerCase()))
      .filter((object) => nameOf(object.state).toLowerCase().includes(String(person.last_name).toLowerCase()))
      .map((object) => object.id);
    expect((await walk("person_application", { name: typed })).sort()).toEqual(expected.sort());
    expect(await walk("person_application", { name: "%" })).toEqual([]);
    expect(await walk("person_application", { name: "_" })).toEqual([]);
  });

  it("resolves a counterparty's name to its id through the search, the named one first", async () => {
    const counterparty = ofKind("counterparty").find((object) => String(object.state.name).includes(" "))!;
    const choices = await resolveName(database.db, {
      environment: "sandbox",
      actor: actor("viewer"),
      requestId: `req_${randomUUID()}`,
      target: "counterparty",
      text: String(counterparty.state.name),
    });
    if ("error" in choices) throw new Error(choices.error);
    expect(choices[0]).toMatchObject({ id: counterparty.id, name: counterparty.state.name });
    expect(choices.every((choice) => choice.id.startsWith("cp_"))).toBe(true);
  });

  it("resolves a person's name to the persons their applications created, each once, saying through which application", async () => {
    const application = ofKind("person_application").find((object) => typeof object.state.person_id === "string")!;
    const text = `${String(application.state.first_name)} ${String(application.state.last_name)}`;
    const choices = await resolveName(database.db, {
      environment: "sandbox",
      actor: actor("viewer"),
      requestId: `req_${randomUUID()}`,
      target: "person",
      text,
    });
    if ("error" in choices) throw new Error(choices.error);
    expect(choices).toContainEqual(expect.objectContaining({ id: application.state.person_id, via: expect.stringMatching(/^apsn_/) }));
    expect(new Set(choices.map((choice) => choice.id)).size).toBe(choices.length);
    expect(choices.every((choice) => choice.id.startsWith("psn_"))).toBe(true);
  });

  it("records a name lookup as the search is: a role that may match masked fields leaves an audit record, a viewer none", async () => {
    const text = `${String(ofKind("person_application")[0]!.state.last_name)} ${randomUUID().slice(0, 6)}`;
    for (const role of ["viewer", "compliance"] as const) {
      await resolveName(database.db, { environment: "sandbox", actor: actor(role), requestId: `req_${randomUUID()}`, target: "person", text });
    }
    const records = await database.db
      .select({ role: schema.auditRecords.role })
      .from(schema.auditRecords)
      .where(and(eq(schema.auditRecords.action, "search.masked_fields"), sql`${schema.auditRecords.before}->>'query' = ${text}`));
    expect(records.map((record) => record.role)).toEqual(["compliance"]);
  });

  describe("GET /api/search/names", () => {
    const route = resolveNameRoute({ activeEnvironment: async () => "sandbox", db: async () => database.db });
    const call = (user: StaffUser | null, query: string, headers: Record<string, string> = {}) =>
      createApiRoute({ currentUser: async () => user, log: createLogger({ level: "silent" }) })(route)(
        new Request(`http://console.test/api/search/names${query}`, { headers }),
        { params: Promise.resolve({}) },
      );
    const viewer: StaffUser = { id: "stf_names_viewer", email: "viewer@demo.bank", name: "viewer", role: "viewer", locked: false };

    it("answers the choices for a name", async () => {
      resetRateLimits();
      const counterparty = ofKind("counterparty")[0]!;
      const response = await call(viewer, `?${new URLSearchParams({ for: "counterparty", q: String(counterparty.state.name) })}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { id: string }[] };
      expect(body.data.map((choice) => choice.id)).toContain(counterparty.id);
    });

    it("is a 401 signed out, a 403 when another site's page asks, a 400 naming what is wrong, never a 5xx", async () => {
      resetRateLimits();
      expect((await call(null, "?for=counterparty&q=Summit")).status).toBe(401);
      expect((await call(viewer, "?for=counterparty&q=Summit", { "sec-fetch-site": "cross-site" })).status).toBe(403);
      for (const [query, message] of [
        ["?for=account&q=Summit", "for: one of"],
        ["?q=Summit", "for"],
        ["?for=counterparty", "q"],
        ["?for=counterparty&q=%20", "q: type something to search for"],
        [`?for=counterparty&q=${"x".repeat(201)}`, "q: at most 200 characters"],
        ["?for=counterparty&q=a%00b", "q: contains characters that cannot be searched"],
        ["?for=counterparty&q=x&extra=1", "extra"],
      ] as const) {
        const response = await call(viewer, query);
        expect(response.status, query).toBe(400);
        expect(JSON.stringify(await response.json()), query).toContain(message);
      }
    });
  });
});
