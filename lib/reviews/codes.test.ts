import { describe, expect, it } from "vitest";
import { applicationIdPattern, checklistItems, isReasonCode, reasonCodes, slaTone } from "./codes";

describe("the review vocabulary", () => {
  it("colours a case's age against the SLA: green under three quarters, amber up to it, red from it", () => {
    expect([0, 35.9, 36, 47.9, 48, 500].map((hours) => slaTone(hours, 48))).toEqual(["ok", "ok", "due", "due", "over", "over"]);
  });

  it("accepts a reason code only under its own decision", () => {
    expect(isReasonCode("decline", "high_risk")).toBe(true);
    expect(isReasonCode("approve", "high_risk")).toBe(false);
    expect(isReasonCode("approve", "constructor")).toBe(false);
    expect(Object.keys(reasonCodes).sort()).toEqual(["approve", "decline", "request_information"]);
  });

  it("checks each beneficial owner of a business, and nothing of an owner without an id", () => {
    expect(
      checklistItems("business_application", { person_applications: [{ id: "apsn_1", ownership_percentage: 60 }, { title: "no id" }] }).slice(4),
    ).toEqual([{ item: "owner:apsn_1", label: "Beneficial owner apsn_1 (60%)" }]);
    expect(checklistItems("person_application", null).map((item) => item.item)).toEqual([
      "identity",
      "date_of_birth",
      "address",
      "identification_number",
      "documents",
    ]);
  });

  it("knows application ids by the contract's prefixes", () => {
    expect(["apsn_abc", "abus_x-1", "ach_1", "apsn_", "apsn_a/b"].map((id) => applicationIdPattern.test(id))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
