import { describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract/operations";
import { webhookDelivery } from "@/lib/contract/resources";
import { bankObjects } from "@/tests/support/sample-objects";
import { allowlists, maskedFields, maskedValue, maskForViewer, riskSummary, soleProprietorAllowlist, type MaskedResource } from "@/lib/pii";
/** Masks a copy, so the sample objects stay as they are for the next test (masking works in place). */
const masked = (resource: MaskedResource, object: Record<string, unknown>) => maskForViewer(resource, structuredClone(object));

describe("masking bank objects by allowlist", () => {
  const person = { ...bankObjects.personApplication, userdata: { note: "called about a loan" }, bankdata: { risk: "low" } };

  it("shows allowlisted fields, partly masks identifying numbers and contacts, and masks everything else", () => {
    expect(masked("person_application", person)).toEqual({
      ...person,
      identification_number: "*******6789",
      date_of_birth: "****-**-**",
      phone_number: "********0143",
      email_address: "a***@example.com",
      physical_address: { ...person.physical_address, street_line_1: maskedValue, postal_code: maskedValue },
      userdata: maskedValue,
      bankdata: maskedValue,
    });
  });

  it("masks a field no allowlist names, whatever its type, at the top level and inside nested objects and arrays", () => {
    const extended = {
      ...bankObjects.personApplication,
      full_ssn: "123-45-6789",
      owner: { date_of_birth: "1970-01-01" },
      aliases: ["Ada King"],
      risk_score: 12,
      physical_address: { ...bankObjects.personApplication.physical_address, geo: { lat: 42.65, lon: -73.75 } },
    };
    const shown = masked("person_application", extended);
    expect(shown).toMatchObject({ full_ssn: maskedValue, owner: maskedValue, aliases: maskedValue, risk_score: maskedValue });
    expect(shown.physical_address).toMatchObject({ geo: maskedValue, city: "Albany" });
    const business = { id: "abus_1", person_applications: [{ id: "apsn_1", title: "CEO", ssn: "123-45-6789" }] };
    expect(masked("business_application", business)).toEqual({
      id: "abus_1",
      person_applications: [{ id: "apsn_1", title: "CEO", ssn: maskedValue }],
    });
  });

  it("keeps null as null and masks a value of an unexpected shape", () => {
    const shown = masked("person_application", { secondary_email_address: null, phone_number: 2025550143, physical_address: "1 Main St" });
    expect(shown).toEqual({ secondary_email_address: null, phone_number: maskedValue, physical_address: maskedValue });
  });

  it("masks fields named like built-in properties, and keeps a __proto__ field a field, never a prototype", () => {
    const parsed = JSON.parse(`{"id":"ach_1","constructor":"x-secret","toString":"y-secret","__proto__":{"status":"shown?"}}`) as Record<
      string,
      unknown
    >;
    const shown = maskForViewer("ach", parsed);
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
    expect(Object.keys(shown)).toEqual(["id", "constructor", "toString", "__proto__"]);
    expect(JSON.parse(JSON.stringify(shown))).toEqual(
      JSON.parse(`{"id":"ach_1","constructor":"[masked]","toString":"[masked]","__proto__":"[masked]"}`),
    );
  });

  it("hides short values entirely", () => {
    expect(masked("person_application", { identification_number: "1234" })).toEqual({ identification_number: "****" });
  });

  it("masks userdata and bankdata on every resource that has them", () => {
    expect(masked("network_transfer", bankObjects.networkTransfer)).toEqual({ ...bankObjects.networkTransfer, userdata: maskedValue });
    expect(masked("webhook", { ...bankObjects.webhook, userdata: { owner: "ops" } })).toEqual({ ...bankObjects.webhook, userdata: maskedValue });
  });

  it("masks the object it is given in place, nested objects included, rather than building a copy", () => {
    const answer = structuredClone(person);
    const shown = maskForViewer("person_application", answer);
    expect(shown).toBe(answer);
    expect(answer).toMatchObject({
      identification_number: "*******6789",
      userdata: maskedValue,
      physical_address: { street_line_1: maskedValue, city: "Albany" },
    });
  });

  it("names only fields the contract defines, so a typo cannot leave a real field masked by accident or an intended one shown", () => {
    const shapes = {
      ...Object.fromEntries(Object.entries(listedResources).map(([name, { schema }]) => [name, schema.shape])),
      webhook_delivery: webhookDelivery.shape,
    } as Record<MaskedResource, object>;
    for (const [resource, allowlist] of Object.entries(allowlists)) {
      const known = Object.keys(shapes[resource as MaskedResource]);
      expect(
        Object.keys(allowlist).filter((field) => !known.includes(field)),
        resource,
      ).toEqual([]);
    }
  });

  it("masks a sole proprietor's business address like a person's home; other businesses' addresses stay shown", () => {
    const address = { street_line_1: "12 Elm St", street_line_2: "Apt 3", city: "Albany", state: "NY", postal_code: "12207", country: "US" };
    const business = { id: "abus_1", name: "Ann Smith", legal_structure: "soleprop", physical_address: address, mailing_address: address };
    const home = { ...address, street_line_1: maskedValue, street_line_2: maskedValue, postal_code: maskedValue };
    expect(masked("business_application", business)).toEqual({ ...business, physical_address: home, mailing_address: home });
    expect(masked("business_application", { ...business, legal_structure: "llc" })).toEqual({ ...business, legal_structure: "llc" });
  });

  it("masks webhook urls' user and password wherever a url is shown", () => {
    expect(masked("webhook", { url: "https://user:pass@hooks.example/a?b=1" })).toEqual({ url: "https://hooks.example/a?b=1" });
    expect(masked("webhook_delivery", { url: "http://u@hooks.example/" })).toEqual({ url: "http://hooks.example/" });
  });
});

/**
 * The rule written in lib/pii/allowlists.ts's header, checked against every allowlist: a field that identifies, locates or
 * reaches a person is never shown in full to a role without `pii:reveal`. Exceptions are named with their reason.
 */
describe("every allowlist keeps the rule for personal fields", () => {
  const personal = /number|ssn|tin$|^tin|email|phone|birth|street|postal|identifier|network_account_id/;
  const notAPerson: Record<string, string> = {
    routing_number: "identifies a bank",
    external_routing_number: "identifies a bank",
    trace_number: "identifies an ACH transfer",
    identification_number_type: "the kind of document, not its number",
  };
  /** A business's public address (a sole proprietor's is masked: soleProprietorAllowlist). */
  const businessAddressFields = ["street_line_1", "street_line_2", "postal_code"];

  function shownPersonalFields(allowlist: Record<string, unknown>, path: string[] = []): string[] {
    return Object.entries(allowlist).flatMap(([field, rule]) => {
      const at = [...path, field];
      if (rule === "show") return personal.test(field) && !(field in notAPerson) ? [at.join(".")] : [];
      if (typeof rule === "function") return [];
      const nested = (rule as { each?: Record<string, unknown> }).each ?? (rule as Record<string, unknown>);
      return shownPersonalFields(nested, at);
    });
  }

  it.each(Object.keys(allowlists))("%s shows no personal number, email, phone, date of birth or home street", (resource) => {
    const shown = shownPersonalFields(allowlists[resource as MaskedResource] as Record<string, unknown>);
    const allowed =
      resource === "business_application"
        ? shown.filter((path) => !businessAddressFields.includes(path.split(".").at(-1)!) || !/_address\./.test(path))
        : shown;
    expect(allowed).toEqual([]);
  });

  it("a sole proprietor's allowlist shows no street or postal code at all", () => {
    expect(shownPersonalFields(soleProprietorAllowlist as Record<string, unknown>)).toEqual([]);
  });

  it("shows names in full, so staff can recognise a caller", () => {
    const names = {
      person_application: ["first_name", "last_name"],
      card: ["cardholder_name"],
      business_application: ["name"],
      counterparty: ["name"],
    } as const;
    for (const [resource, fields] of Object.entries(names)) {
      for (const field of fields)
        expect((allowlists[resource as MaskedResource] as Record<string, unknown>)[field], `${resource}.${field}`).toBe("show");
    }
  });
});

describe("what a reveal shows and the queue's risk summary", () => {
  it("names every field masking hides, nested ones by path, and leaves the object as it was", () => {
    const application = {
      id: "pa_1",
      first_name: "Ada",
      date_of_birth: "1990-01-01",
      email_address: "ada@example.com",
      physical_address: { street_line_1: "1 Main St", city: "Boston" },
      bankdata: null,
      userdata: { a: 1 },
    };
    const copy = structuredClone(application);
    expect(maskedFields("person_application", application)).toEqual(["date_of_birth", "email_address", "physical_address.street_line_1", "userdata"]);
    expect(application).toEqual(copy);
  });

  it("shows only allowlisted scalar bankdata fields as the risk summary", () => {
    expect(riskSummary({ bankdata: { kyc_vendor: "alloy", risk_score: 42, analyst_phone: "555", kyc_result: { nested: true } } })).toEqual([
      { field: "kyc_vendor", value: "alloy" },
      { field: "risk_score", value: 42 },
    ]);
    expect(riskSummary({ bankdata: null })).toEqual([]);
    expect(riskSummary(null)).toEqual([]);
  });
});
