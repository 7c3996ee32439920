import { describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract/operations";
import { webhookDelivery } from "@/lib/contract/resources";
import { bankObjects } from "@/lib/api/test-support/sample-objects";
import { allowlists, maskedValue, maskForViewer, type MaskedResource } from "./pii";

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
    expect(masked("business_application", business)).toEqual({ id: "abus_1", person_applications: [{ id: "apsn_1", title: "CEO", ssn: maskedValue }] });
  });

  it("keeps null as null and masks a value of an unexpected shape", () => {
    const shown = masked("person_application", { secondary_email_address: null, phone_number: 2025550143, physical_address: "1 Main St" });
    expect(shown).toEqual({ secondary_email_address: null, phone_number: maskedValue, physical_address: maskedValue });
  });

  it("masks fields named like built-in properties, and keeps a __proto__ field a field, never a prototype", () => {
    const parsed = JSON.parse(`{"id":"ach_1","constructor":"x-secret","toString":"y-secret","__proto__":{"status":"shown?"}}`) as Record<string, unknown>;
    const shown = maskForViewer("ach", parsed);
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
    expect(Object.keys(shown)).toEqual(["id", "constructor", "toString", "__proto__"]);
    expect(JSON.parse(JSON.stringify(shown))).toEqual(JSON.parse(`{"id":"ach_1","constructor":"[masked]","toString":"[masked]","__proto__":"[masked]"}`));
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
    expect(answer).toMatchObject({ identification_number: "*******6789", userdata: maskedValue, physical_address: { street_line_1: maskedValue, city: "Albany" } });
  });

  it("names only fields the contract defines, so a typo cannot leave a real field masked by accident or an intended one shown", () => {
    const shapes = {
      ...Object.fromEntries(Object.entries(listedResources).map(([name, { schema }]) => [name, schema.shape])),
      webhook_delivery: webhookDelivery.shape,
    } as Record<MaskedResource, object>;
    for (const [resource, allowlist] of Object.entries(allowlists)) {
      const known = Object.keys(shapes[resource as MaskedResource]);
      expect(Object.keys(allowlist).filter((field) => !known.includes(field)), resource).toEqual([]);
    }
  });
});
