import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { achReturnCodeOf, achReturnWords, explainFailure, fednowRejectWords } from "./reason-codes";
import { achReturnCodes, fednowRejectReasons } from "./sandbox-reason-codes";

const doc = readFileSync(new URL("../../docs/return-codes.md", import.meta.url), "utf8");

describe("the one table of return codes and reject reasons", () => {
  it("explains every code the bank and the Simulate menu know, and no other", () => {
    expect(Object.keys(achReturnWords).sort()).toEqual(Object.keys(achReturnCodes).sort());
    expect(Object.keys(fednowRejectWords).sort()).toEqual(Object.keys(fednowRejectReasons).sort());
  });

  it("docs/return-codes.md prints each code with its title, meaning and next step as the code has them", () => {
    const tables = [
      [achReturnCodes, achReturnWords],
      [fednowRejectReasons, fednowRejectWords],
    ] as const;
    for (const [titles, words] of tables) {
      for (const [code, title] of Object.entries(titles)) {
        expect(doc).toContain(`| ${code} | ${title} | ${words[code]!.meaning} | ${words[code]!.nextStep} |`);
      }
    }
  });
});

describe("why a transfer or payment failed", () => {
  it("an ACH transfer returned R01 reads as its code, title, meaning and next step", () => {
    expect(explainFailure("ach", { status: "returned", error: "R01 Insufficient Funds" })).toEqual({
      code: "R01",
      title: "Insufficient Funds",
      ...achReturnWords.R01,
    });
  });

  it("an ACH error without a return code keeps the bank's words as its title", () => {
    const error = "Rejected by the ACH operator: invalid receiving DFI routing number";
    expect(explainFailure("ach", { status: "error", error })).toMatchObject({ code: null, title: error });
    expect(achReturnCodeOf(error)).toBeNull();
    expect(achReturnCodeOf("R29 Corporate Customer Advises Not Authorized")).toBe("R29");
  });

  it("an instant payment rejected by the receiving bank reads as its ISO reason; one in error as the bank's words", () => {
    const rejected = { status: "settled", external_status: "rejected", external_reject_reason: { code: "AM04", message: "Insufficient funds" } };
    expect(explainFailure("fednow", rejected)).toEqual({ code: "AM04", title: "Insufficient funds", ...fednowRejectWords.AM04 });
    expect(explainFailure("fednow", { status: "error", error: "Payment failed: timeout", external_reject_reason: null })).toMatchObject({
      code: null,
      title: "Payment failed: timeout",
    });
  });

  it("a network transfer's error has no code; an object that did not fail has no reason", () => {
    expect(explainFailure("network_transfer", { status: "error", error: "Receiving account is closed" })).toMatchObject({
      code: null,
      title: "Receiving account is closed",
    });
    expect(explainFailure("ach", { status: "settled", error: null })).toBeNull();
    expect(explainFailure("fednow", { status: "settled", error: "", external_reject_reason: null })).toBeNull();
    expect(explainFailure("fednow", { status: "settled", external_status: "blocked", external_reject_reason: null })).toMatchObject({ code: null });
  });
});
