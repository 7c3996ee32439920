import { describe, expect, it } from "vitest";
import { resources } from "@/lib/resources";
import { idsNamedIn, showsNameBeside } from "./names-beside";

describe("names beside ids", () => {
  it("names a counterparty beside its id on an ACH row, not the account or the transfer's own id", () => {
    const columns = resources.ach.columns;
    expect(columns.filter(showsNameBeside).map((field) => field.key)).toEqual(["counterparty_id"]);
  });

  it("collects each named id once, leaving out missing and masked values", () => {
    const rows = [
      { id: "ach_1", counterparty_id: "cp_a" },
      { id: "ach_2", counterparty_id: "cp_a" },
      { id: "ach_3", counterparty_id: "cp_b" },
      { id: "ach_4", counterparty_id: null },
      { id: "ach_5", counterparty_id: "[masked]" },
    ];
    expect(idsNamedIn(resources.ach.columns, rows)).toEqual(["cp_a", "cp_b"]);
  });
});
