import { describe, expect, it } from "vitest";
import { cursorOf, firstRowNumber, hasPreviousPage, listStateFrom, nextPage, previousPage, searchOf, withQuery } from "./list-state";

describe("a list's state in its URL", () => {
  it("keeps the bank's parameters as they are, sorted, and the walked cursors apart", () => {
    const state = listStateFrom(new URLSearchParams("status=returned&page_size=25&prev_cursors=ach_a,ach_b&page_cursor=ach_c"));
    expect(state).toEqual({ query: { page_cursor: "ach_c", page_size: "25", status: "returned" }, history: ["ach_a", "ach_b"] });
    expect(Object.keys(state.query)).toEqual(["page_cursor", "page_size", "status"]);
  });

  it("reads Next.js searchParams objects the same way as URLSearchParams", () => {
    expect(listStateFrom({ status: "sent", page_size: "50", prev_cursors: undefined })).toEqual(listStateFrom(new URLSearchParams("page_size=50&status=sent")));
  });

  it("walks forward and back through pages without OFFSET, numbering rows across pages", () => {
    const first = listStateFrom(new URLSearchParams("page_size=25&status=sent"));
    expect(firstRowNumber(first)).toBe(1);
    expect(hasPreviousPage(first)).toBe(false);
    const second = nextPage(first, "ach_25");
    expect(second).toEqual({ query: { page_cursor: "ach_25", page_size: "25", status: "sent" }, history: [] });
    expect(firstRowNumber(second)).toBe(26);
    const third = nextPage(second, "ach_50");
    expect(third.history).toEqual(["ach_25"]);
    expect(firstRowNumber(third)).toBe(51);
    expect(searchOf(third)).toBe("page_cursor=ach_50&page_size=25&status=sent&prev_cursors=ach_25");
    expect(previousPage(third)).toEqual(second);
    expect(previousPage(second)).toEqual(first);
  });

  it("uses the bank's default page size of 100 when the URL names none", () => {
    expect(firstRowNumber(nextPage(listStateFrom({}), "ach_x"))).toBe(101);
  });

  it("starts again at the first page when a filter or the page size changes, and drops emptied filters", () => {
    const deep = nextPage(nextPage(listStateFrom({ status: "sent" }), "a"), "b");
    expect(withQuery(deep, { status: "returned", account_id: "acct_1" })).toEqual({ query: { account_id: "acct_1", status: "returned" }, history: [] });
    expect(withQuery(deep, { status: "" })).toEqual({ query: {}, history: [] });
  });

  it("takes the next cursor from the page_next URL the console gives", () => {
    expect(cursorOf("/api/bank/ach?page_size=25&page_cursor=ach_9&status=sent")).toBe("ach_9");
    expect(cursorOf(undefined)).toBeUndefined();
  });
});
