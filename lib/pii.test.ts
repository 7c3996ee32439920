import { describe, expect, it } from "vitest";
import { maskApplication } from "./pii";

describe("maskApplication", () => {
  const person = {
    id: "apsn_1",
    first_name: "Ada",
    identification_number: "123-45-6789",
    date_of_birth: "1985-04-12",
    phone_number: "+12025550143",
    email_address: "ada.lovelace@example.com",
    secondary_email_address: null,
    physical_address: { city: "Albany" },
    custom_field: "kept",
  };

  it("masks identification number, date of birth, phone and email of a person, and leaves the rest", () => {
    expect(maskApplication("person_application", person)).toEqual({
      ...person,
      identification_number: "*******6789",
      date_of_birth: "****-**-**",
      phone_number: "********0143",
      email_address: "a***@example.com",
      secondary_email_address: null,
    });
  });

  it("masks identification number, tin and phone of a business", () => {
    const business = { id: "abus_1", name: "Acme", tin: "12-3456789", identification_number: null, phone_number: "2025550100" };
    expect(maskApplication("business_application", business)).toEqual({
      ...business,
      tin: "******6789",
      phone_number: "******0100",
    });
  });

  it("hides short values entirely and masks values of an unexpected type", () => {
    const masked = maskApplication("person_application", { ...person, identification_number: "1234", phone_number: 2025550143 });
    expect(masked.identification_number).toBe("****");
    expect(masked.phone_number).toBe("[masked]");
  });

  it("does not change the object it was given", () => {
    const copy = structuredClone(person);
    maskApplication("person_application", person);
    expect(person).toEqual(copy);
  });
});
