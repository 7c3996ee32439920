import { describe, expect, it } from "vitest";
import { maskForViewer } from "@/lib/pii";
import { testDatabaseTargets } from "@/tests/support/databases";
import { proxyHarness, staff, startProxyBank } from "@/tests/support/proxy-harness";
import { revealableFields } from "./bank-reveal";

// A reveal names the fields it asks for (lib/api/bank-reveal.ts, docs/reviews.md): through the proxy in front of the
// real sandbox bank, with a real audit trail on every database target. The whole-object reveal ("all") and the
// refusals shared with it (reason, origin, role) are in bank-proxy-reads.test.ts.

const bank = startProxyBank();
const reason = "KYC ticket CASE-77";
const revealMinutes = 7;
const isoSecond = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe.each(testDatabaseTargets)("revealing one field at a time, audit trail on $name", (target) => {
  const harness = proxyHarness(bank, target);
  const { session, callProxy, proxyWith, recordsOf, expectedRecord } = harness;
  const proxy = () => proxyWith({ revealMinutes: () => revealMinutes });
  const personPath = () => `/apply/person_application/${bank.seed.person_application}`;
  const reveal = (path: string, body: unknown) => callProxy("POST", `${path}/reveal`, { body: body as object, through: proxy() });
  const rawPerson = () =>
    bank.direct.call("get_person_application", { params: { id: bank.seed.person_application } }) as Promise<Record<string, unknown>>;

  it("unmasks the date of birth alone, keeps every other field masked, and records the field, the reason and the expiry", async () => {
    session.user = staff("compliance");
    const asked = Date.now();
    const response = await reveal(personPath(), { reason, fields: ["date_of_birth"] });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const original = await rawPerson();
    const masked = maskForViewer("person_application", structuredClone(original));
    expect(response.json).toEqual({ ...masked, date_of_birth: original.date_of_birth });
    expect(response.text).not.toContain(String(original.identification_number));
    const [record] = await recordsOf(response);
    expect(record).toEqual(
      expectedRecord(response, {
        action: "person_application.reveal",
        targetId: bank.seed.person_application,
        before: null,
        after: { requested: ["date_of_birth"], fields: ["date_of_birth"], reason, expiresAt: expect.stringMatching(isoSecond) },
        outcome: "succeeded",
        error: null,
      }),
    );
    // The expiry is REVEAL_MINUTES after the reveal (to the second, as the trail keeps times).
    const expiresAt = Date.parse((record!.after as { expiresAt: string }).expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000 + revealMinutes * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + revealMinutes * 60_000);
  });

  it("unmasks the SSN alone while the date of birth stays masked; each reveal is its own record", async () => {
    session.user = staff("admin");
    const first = await reveal(personPath(), { reason, fields: ["identification_number"] });
    const second = await reveal(personPath(), { reason: "second look", fields: ["email_address", "phone_number"] });
    const original = await rawPerson();
    expect(first.json).toMatchObject({ identification_number: original.identification_number, date_of_birth: "****-**-**" });
    expect(first.text).not.toContain(String(original.date_of_birth));
    expect(second.json).toMatchObject({ email_address: original.email_address, phone_number: original.phone_number });
    expect(second.json!.identification_number).not.toBe(original.identification_number);
    expect((await recordsOf(first)).map((record) => record.after)).toEqual([expect.objectContaining({ fields: ["identification_number"] })]);
    expect((await recordsOf(second)).map((record) => record.after)).toEqual([
      expect.objectContaining({ requested: ["email_address", "phone_number"], fields: ["email_address", "phone_number"], reason: "second look" }),
    ]);
  });

  it("reveals a whole nested field (an address) by its name, and a business's TIN alone", async () => {
    session.user = staff("compliance");
    const address = await reveal(personPath(), { reason, fields: ["physical_address"] });
    const original = await rawPerson();
    expect(address.json!.physical_address).toEqual(original.physical_address);
    const [record] = await recordsOf(address);
    expect((record!.after as { fields: string[] }).fields.every((field) => field.startsWith("physical_address."))).toBe(true);

    const business = await reveal(`/apply/business_application/${bank.seed.business_application}`, { reason, fields: ["tin"] });
    const rawBusiness = (await bank.direct.call("get_business_application", { params: { id: bank.seed.business_application } })) as Record<
      string,
      unknown
    >;
    expect(business.json).toMatchObject({ tin: rawBusiness.tin });
    expect(business.json!.identification_number).not.toBe(rawBusiness.identification_number);
  });

  it('reveals every masked field only when asked for "all", recorded as such', async () => {
    session.user = staff("compliance");
    const response = await reveal(personPath(), { reason, fields: "all" });
    expect(response.json).toEqual(await rawPerson());
    expect((await recordsOf(response))[0]!.after).toMatchObject({
      requested: "all",
      fields: expect.arrayContaining(["date_of_birth", "identification_number"]),
    });
  });

  it.each([
    ["a field that does not exist", ["date_of_brith"], '"date_of_brith"'],
    ["a field shown unmasked already", ["first_name"], '"first_name"'],
    ["a path inside a field", ["physical_address.street_line_1"], '"physical_address.street_line_1"'],
    ["an inherited name", ["__proto__"], '"__proto__"'],
    ["an empty name", [""], '""'],
    ["no field at all", [], "at least one field"],
    ["a word other than all", "everything", "fields"],
    ["no fields named", undefined, "fields"],
  ])("answers 400 naming %s; the bank is not asked and nothing is recorded", async (_case, fields, named) => {
    session.user = staff("compliance");
    const response = await reveal(personPath(), fields === undefined ? { reason } : { reason, fields });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "invalid_input", message: expect.stringContaining(named) } });
    expect(bank.recording.received).toEqual([]);
    expect(await recordsOf(response)).toEqual([]);
  });

  it("lists the fields a reveal may name: the contract's fields masking hides, never one every page shows", () => {
    expect(revealableFields("person_application")).toEqual(
      expect.arrayContaining(["date_of_birth", "identification_number", "email_address", "phone_number", "physical_address"]),
    );
    expect(revealableFields("person_application")).not.toContain("first_name");
    expect(revealableFields("business_application")).toEqual(expect.arrayContaining(["tin", "identification_number"]));
  });

  it("is 401 signed out and 403 to a role without pii:reveal, before the bank is asked", async () => {
    for (const [user, status] of [
      [null, 401],
      [staff("viewer"), 403],
      [staff("operations"), 403],
    ] as const) {
      session.user = user;
      const response = await reveal(personPath(), { reason, fields: ["date_of_birth"] });
      expect(response.status).toBe(status);
    }
    expect(bank.recording.received).toEqual([]);
  });
});
