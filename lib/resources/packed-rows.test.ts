import { describe, expect, it } from "vitest";
import { packedField, packPage, packRows, unpackPage, unpackRows } from "./packed-rows";

const rows = [
  { id: "ach_1", status: "sent", amount: "12.00", error: null, userdata: { invoice: "INV-1" } },
  { id: "ach_2", status: "returned", amount: "3.50", error: "R01 Insufficient Funds" },
  { status: "pending", id: "ach_3", amount: "0.01", error: null, direction: "debit" },
];

describe("packed rows", () => {
  it("names each field once and gives every row back exactly, nulls kept and missing fields left out", () => {
    const packed = packRows(rows);
    expect(packed.fields).toEqual(["id", "status", "amount", "error", "userdata", "direction"]);
    expect(packed.rows[1]).toEqual(["ach_2", "returned", "3.50", "R01 Insufficient Funds", undefined, undefined]);
    const back = unpackRows(packed);
    expect(back).toEqual(rows);
    expect(Object.hasOwn(back[1]!, "userdata")).toBe(false);
    expect(back[0]!.error).toBeNull();
  });

  it("packs a list page's data and keeps the rest of the page; unpacking gives the page back", () => {
    const page = { data: rows, page_next: "/api/bank/ach?page_cursor=ach_3", index: { served: true } };
    const packed = packPage(page) as Record<string, unknown>;
    expect(packed.data).toBeUndefined();
    expect(packed[packedField]).toEqual(packRows(rows));
    expect(packed.page_next).toBe(page.page_next);
    expect(unpackPage(packed)).toEqual(page);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(page).length);
  });

  it("leaves what is not a page of object rows as it is", () => {
    for (const value of [null, "text", { data: "x" }, { data: [1, 2] }, { error: { code: "bank_unavailable" } }]) {
      expect(packPage(value)).toBe(value);
      expect(unpackPage(value)).toBe(value);
    }
    expect(unpackPage({ data: [] })).toEqual({ data: [] });
    expect(unpackPage(packPage({ data: [] }))).toEqual({ data: [] });
  });
});
