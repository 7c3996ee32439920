import { describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract";
import { achReturnWords, explainFailure, fednowRejectWords } from "@/lib/contract/reason-codes";
import { derivedColumns, fieldHint, fieldValue, withDerivedValues } from "./derived";
import { resources } from "./index";
import { listPayload } from "./list-payload";
import { sortKindOf } from "./sorting";
import type { Field, ResourceName } from "./types";

const column = (resource: ResourceName, key: string): Field => {
  const found = resources[resource].columns.find((field) => field.key === key);
  if (!found) throw new Error(`${resource} has no column ${key}`);
  return found;
};

describe("an ACH transfer's return code and reason, derived from the bank's error", () => {
  const code = column("ach", "return_code");
  const reason = column("ach", "return_reason");
  const returned = { id: "ach_1", status: "returned", error: "R01 Insufficient Funds" };

  it("shows the code alone, its title and meaning on hover", () => {
    expect(fieldValue(returned, code, explainFailure)).toBe("R01");
    expect(fieldHint(returned, code, explainFailure)).toBe(`R01 Insufficient Funds: ${achReturnWords.R01!.meaning}`);
  });

  it("gives the reason as the code's title in words, its meaning on hover", () => {
    expect(fieldValue(returned, reason, explainFailure)).toBe("Insufficient Funds");
    expect(fieldHint(returned, reason, explainFailure)).toBe(achReturnWords.R01!.meaning);
  });

  it("shows the code before a page has loaded the word tables, and its words only once they are there", () => {
    expect(fieldValue(returned, code, null)).toBe("R01");
    expect([fieldHint(returned, code, null), fieldValue(returned, reason, null), fieldHint(returned, reason, null)]).toEqual([null, null, null]);
  });

  it("has no code for an error without one, and the bank's own words as the reason", () => {
    const rejected = { id: "ach_2", status: "error", error: "Rejected by the ACH operator" };
    expect(fieldValue(rejected, code, explainFailure)).toBeNull();
    expect(fieldValue(rejected, reason, explainFailure)).toBe("Rejected by the ACH operator");
  });

  it("is empty for a transfer that did not fail", () => {
    for (const error of [null, undefined, ""]) {
      expect(fieldValue({ id: "ach_3", status: "sent", error }, code, explainFailure)).toBeNull();
      expect(fieldValue({ id: "ach_3", status: "sent", error }, reason, explainFailure)).toBeNull();
    }
  });
});

describe("an instant payment's reject code and reason, derived from the bank's external reject reason", () => {
  const code = column("fednow", "reject_code");
  const reason = column("fednow", "reject_reason");

  it("reads the ISO 20022 code and gives its title in words", () => {
    const rejected = { id: "fednow_1", external_status: "rejected", external_reject_reason: { code: "AM04", message: "Insufficient funds" } };
    expect(fieldValue(rejected, code, explainFailure)).toBe("AM04");
    expect(fieldValue(rejected, reason, explainFailure)).toBe("Insufficient funds");
    expect(fieldHint(rejected, reason, explainFailure)).toBe(fednowRejectWords.AM04!.meaning);
  });

  it("says why a payment blocked on the receiving side failed, without inventing a code", () => {
    const blocked = { id: "fednow_2", external_status: "blocked", external_reject_reason: null };
    expect(fieldValue(blocked, code, explainFailure)).toBeNull();
    expect(fieldValue(blocked, reason, explainFailure)).toMatch(/blocked/);
  });

  it("is empty for a payment that went through", () => {
    const settled = { id: "fednow_3", status: "settled", external_status: "accepted", external_reject_reason: null, error: null };
    expect([fieldValue(settled, code, explainFailure), fieldValue(settled, reason, explainFailure)]).toEqual([null, null]);
  });
});

describe("derived columns", () => {
  const everyDerived = Object.values(resources).flatMap((definition) =>
    derivedColumns(definition.columns).map((field) => ({ resource: definition.name, field })),
  );

  it("are named apart from every field the bank returns, so a row keeps the bank's answer beside them", () => {
    expect(everyDerived.map(({ resource, field }) => `${resource}.${field.key}`).sort()).toEqual(
      ["ach.return_code", "ach.return_reason", "fednow.reject_code", "fednow.reject_reason"].sort(),
    );
    for (const { resource, field } of everyDerived) expect(Object.keys(listedResources[resource].schema.shape)).not.toContain(field.key);
  });

  it("are added to a row without changing the bank's fields", () => {
    const row = { id: "ach_1", status: "returned", error: "R02 Account Closed" };
    expect(withDerivedValues(derivedColumns(resources.ach.columns), row, explainFailure)).toEqual({
      ...row,
      return_code: "R02",
      return_reason: "Account Closed",
    });
  });

  it("are not offered as sorts: the index sorts by the bank's fields it holds", () => {
    for (const { field } of everyDerived) expect(sortKindOf(field)).toBeNull();
  });

  it("keep the fields they are computed from in a list's first-load payload", () => {
    const payment = {
      id: "fednow_1",
      external_status: "rejected",
      external_reject_reason: { code: "AC04", message: "Closed" },
      memo: "not a column",
    };
    const [kept] = listPayload(resources.fednow, { data: [payment] }).data as Array<Record<string, unknown>>;
    expect(kept).toMatchObject({ external_status: "rejected", external_reject_reason: { code: "AC04", message: "Closed" } });
    expect(kept).not.toHaveProperty("memo");
    expect(fieldValue(kept, column("fednow", "reject_code"), explainFailure)).toBe("AC04");
  });
});
