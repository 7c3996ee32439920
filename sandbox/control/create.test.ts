import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idPrefixes, listedResources, timestampPattern } from "@/lib/contract";
import { events } from "@/sandbox/db/webhook-schema";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxWithReceiver } from "@/tests/support/sandbox-with-receiver";

type Created = Record<string, unknown> & { id: string; created_at: string; updated_at: string };
type Resource = "ach" | "network_transfer" | "fednow" | "counterparty" | "person_application" | "business_application" | "card";

const address = { street_line_1: "1 Elm St", street_line_2: "Apt 2", city: "Austin", state: "TX", postal_code: "73301", country: "US" };
/** Fields a test gives for each resource (an ACH's counterparty is added by the test), and what the rest defaults to. */
const given: Record<Resource, { fields: Record<string, unknown>; defaults: Record<string, unknown> }> = {
  ach: {
    fields: { amount: "12.34", direction: "debit", service: "sameday", userdata: { invoice: "INV-1" } },
    defaults: { status: "pending", error: null, sec_code: "ppd", trace_number: expect.stringMatching(/^09190762[0-9]{7}$/) },
  },
  network_transfer: {
    fields: { amount: "5.00", cross_bank: true, description: "Rent" },
    defaults: { status: "pending", error: null, balanced_at: null, version: "v2", from_account_id: expect.stringMatching(/^acct_/) },
  },
  fednow: {
    fields: { payment_type: "debit", amount: "7.50", external_name: "Ann Lee" },
    defaults: { status: "pending", external_status: null, external_reject_reason: null, currency: "USD", related_fednow_ids: [] },
  },
  counterparty: {
    fields: { name: "Acme Supply", wire: { account_number: "123456789", routing_number: "011000015", bank_name: "First Harbor Bank" } },
    defaults: {
      ach: { account_number: expect.stringMatching(/^[0-9]{10}$/), account_type: "checking", routing_number: expect.any(String) },
      userdata: null,
    },
  },
  person_application: {
    fields: { first_name: "Ann", last_name: "Lee", citizenship: "CA", physical_address: address },
    defaults: { person_id: null, document_ids: [], mailing_address: null },
  },
  business_application: {
    fields: {
      name: "Acme Corp",
      legal_structure: "corp",
      person_applications: [{ id: "apsn_1", ownership_percentage: 60, roles: ["signer"], title: "CEO" }],
    },
    defaults: { naics: "54", urls: [], parent_businesses: [], publicly_traded: null },
  },
  card: {
    fields: { form: "physical", status: "unactivated", cardholder_name: "ANN LEE" },
    defaults: { person_id: null, last_four: expect.stringMatching(/^[0-9]{4}$/), userdata: null },
  },
};
const resources = Object.keys(given) as Resource[];
const pathOf = (resource: Resource) => listedResources[resource].path;

describe.each(testDatabaseTargets)("POST /sandbox/{resource} on $name", (target) => {
  const bank = sandboxWithReceiver(
    target,
    resources.map((resource) => `${resource}.create`),
  );
  const create = (resource: Resource, json: unknown) => bank.request(`/sandbox${pathOf(resource)}`, { method: "POST", json });
  const newCounterparty = async (json: Record<string, unknown> = {}) => {
    const created = await create("counterparty", json);
    expect(created.status).toBe(201);
    return (created.body as Created).id;
  };
  const createdEvents = async (resource: Resource) =>
    (
      await bank.sandbox.context.db
        .select()
        .from(events)
        .where(eq(events.name, `${resource}.create`))
    ).length;

  it.each(resources)("%s: 201 with the given fields and defaults, as its GET answers it, and its create event fired once", async (resource) => {
    const extra = resource === "ach" ? { counterparty_id: await newCounterparty() } : {};
    const created = await create(resource, { ...given[resource].fields, ...extra });
    expect(created.status).toBe(201);
    const body = created.body as Created;
    expect(body).toMatchObject({ ...given[resource].fields, ...extra, ...given[resource].defaults });
    expect(body.id).toMatch(new RegExp(`^${idPrefixes[resource]}[0-9a-f]{24}$`));
    expect(body.created_at).toMatch(timestampPattern);
    expect(body.updated_at).toBe(body.created_at);
    expect(Math.abs(Date.parse(body.created_at) - bank.sandbox.context.now().getTime())).toBeLessThan(5_000);
    expect(listedResources[resource].schema.parse(body)).toEqual(body);
    expect(await bank.request(`${pathOf(resource)}/${body.id}`)).toMatchObject({ status: 200, body });
    expect(await bank.eventsAbout(body.id)).toEqual([`${resource}.create`]);
  });

  it.each(resources)("%s: an empty body takes every default", async (resource) => {
    if (resource === "ach") await newCounterparty();
    const created = await create(resource, {});
    expect(created.status).toBe(201);
    expect(created.body as Created).toMatchObject(given[resource].defaults);
    expect((await bank.request(`${pathOf(resource)}/${(created.body as Created).id}`)).body).toEqual(created.body);
  });

  it("gives an ACH transfer the newest counterparty with an ach section, as the list orders them, when none is named", async () => {
    await newCounterparty();
    await newCounterparty({ ach: null, wire: { account_number: "1", routing_number: "011000015", bank_name: "Wire Only Bank" } });
    const listed = (await bank.request("/counterparty?page_size=1000")).body as { data: Array<{ id: string; ach: unknown }> };
    const created = await create("ach", {});
    expect(created).toMatchObject({ status: 201, body: { counterparty_id: listed.data.find((counterparty) => counterparty.ach !== null)!.id } });
  });

  it.each<[string, Resource, unknown, string]>([
    ["an amount without two decimals", "ach", { amount: "12.5" }, "amount: expected an amount with two decimals such as 12.50"],
    [
      "a status (the bank sets it)",
      "ach",
      { status: "sent" },
      "status is set by the bank: a new ach starts as the bank starts it; move it with POST /sandbox/ach/{id}/transition",
    ],
    ["an id (the bank makes it)", "card", { id: "card_mine" }, "id is set by the bank: a new card starts as the bank starts it"],
    [
      "a counterparty that does not exist",
      "ach",
      { counterparty_id: "cp_missing" },
      "counterparty_id cp_missing is not a counterparty with an ach section",
    ],
    [
      "a day that is not in the calendar",
      "network_transfer",
      { estimated_settlement_at: "2026-02-30T09:00:00Z" },
      "estimated_settlement_at: 2026-02-30T09:00:00Z is not a real instant",
    ],
    [
      "an amount too large for the bank",
      "network_transfer",
      { amount: "1234567890123456789.00" },
      "amount must have at most 18 digits before the decimal point",
    ],
    ["a first name over 36 characters", "person_application", { first_name: "x".repeat(37) }, "first_name: at most 36 characters"],
    ["an unknown legal structure", "business_application", { legal_structure: "sole" }, "legal_structure:"],
    ["a last_four that is not four digits", "card", { last_four: "12a4" }, "last_four:"],
    ["an unknown field", "fednow", { colour: "red" }, "unknown field: colour"],
    ["userdata over 1 KB", "counterparty", { userdata: { note: "x".repeat(1100) } }, "userdata must be at most 1024 bytes once serialized as JSON"],
    ["a body that is no object", "counterparty", [], "the body must be a JSON object"],
  ])("refuses %s: 400 naming the field, nothing created or fired", async (_case, resource, json, message) => {
    const before = await createdEvents(resource);
    const refused = await create(resource, json);
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toContain(message);
    expect(await createdEvents(resource)).toBe(before);
  });

  it("refuses an ACH transfer to a counterparty without an ach section", async () => {
    const wireOnly = await newCounterparty({ ach: null, wire: { account_number: "1", routing_number: "011000015", bank_name: "Wire Only Bank" } });
    const refused = await create("ach", { counterparty_id: wireOnly });
    expect(refused).toMatchObject({ status: 400, body: { error: `counterparty_id ${wireOnly} is not a counterparty with an ach section` } });
  });

  it("answers 401 without credentials and creates nothing", async () => {
    const before = await createdEvents("card");
    const anonymous = await bank.request("/sandbox/card", { method: "POST", json: {}, headers: { authorization: "" } });
    expect(anonymous.status).toBe(401);
    expect(await createdEvents("card")).toBe(before);
  });

  it("answers 404 naming the resources it creates for one it does not", async () => {
    const refused = await bank.request("/sandbox/deposit_sweep", { method: "POST", json: {} });
    expect(refused).toMatchObject({
      status: 404,
      body: {
        error:
          "No sandbox resource at /sandbox/deposit_sweep: POST /sandbox/{resource} creates ach, network_transfer, fednow, counterparty, " +
          "apply/person_application, apply/business_application, card; POST /sandbox/{resource}/{id}/transition moves ach, network_transfer, fednow, webhook",
      },
    });
  });

  it("is described in /openapi.json under the sandbox tag, sandbox-only, with the fields a create accepts", async () => {
    type Entry = {
      tags: string[];
      "x-sandbox-only": boolean;
      requestBody: { content: { "application/json": { schema: { properties: object } } } };
      responses: object;
    };
    const document = (await bank.request("/openapi.json")).body as { paths: Record<string, Record<string, Entry>> };
    for (const resource of resources) {
      const create = document.paths[`/sandbox${pathOf(resource)}`]!.post!;
      expect(create).toMatchObject({ tags: ["sandbox"], "x-sandbox-only": true });
      expect(Object.keys(create.responses)).toEqual(["201", "400", "401"]);
      const fields = Object.keys(create.requestBody.content["application/json"].schema.properties);
      expect(fields).toEqual(expect.arrayContaining(Object.keys(given[resource].fields)));
      expect(fields).not.toContain("id");
    }
    for (const resource of ["ach", "network_transfer", "fednow", "webhook"]) {
      const transition = document.paths[`/sandbox/${resource}/{id}/transition`]!.post!;
      expect(transition).toMatchObject({ tags: ["sandbox"], "x-sandbox-only": true });
      expect(Object.keys(transition.responses)).toEqual(["200", "400", "401", "404", "409"]);
    }
  });
});
