import { describe, expect, it } from "vitest";
import {
  firstRowNumber,
  hasPreviousPage,
  listStateFrom,
  nextPage,
  pageSizeOf,
  previousPage,
  rememberedPageSize,
  searchOf,
  withDefaultPageSize,
  withoutView,
  withQuery,
} from "./list-state";

describe("a list's state in its URL", () => {
  it("keeps the bank's parameters as they are, sorted, and the walked cursors apart", () => {
    const state = listStateFrom(new URLSearchParams("status=returned&page_size=25&prev_cursors=ach_a,ach_b&page_cursor=ach_c"));
    expect(state).toEqual({ query: { page_cursor: "ach_c", page_size: "25", status: "returned" }, history: ["ach_a", "ach_b"] });
    expect(Object.keys(state.query)).toEqual(["page_cursor", "page_size", "status"]);
  });

  it("reads Next.js searchParams objects the same way as URLSearchParams", () => {
    expect(listStateFrom({ status: "sent", page_size: "50", prev_cursors: undefined })).toEqual(
      listStateFrom(new URLSearchParams("page_size=50&status=sent")),
    );
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

  it("uses the console's default page size of 50 when the URL names none", () => {
    expect(firstRowNumber(nextPage(listStateFrom({}), "ach_x"))).toBe(51);
    expect(withDefaultPageSize(listStateFrom({ status: "sent" })).query).toEqual({ page_size: "50", status: "sent" });
  });

  it("asks the bank for the remembered page size only when the URL names none: the URL wins", () => {
    const remembered = rememberedPageSize("25");
    expect(remembered).toBe(25);
    const bare = withDefaultPageSize(nextPage(listStateFrom({ status: "sent" }), "ach_x"), remembered);
    expect(bare).toEqual({ query: { page_cursor: "ach_x", page_size: "25", status: "sent" }, history: [] });
    expect(firstRowNumber(nextPage(bare, "ach_y"))).toBe(51);
    expect(pageSizeOf(withDefaultPageSize(listStateFrom({ page_size: "100" }), remembered))).toBe(100);
  });

  it("ignores a remembered page size that is not one of the sizes offered", () => {
    for (const value of [undefined, "", "7", "1000", "abc", "50.5"]) expect(rememberedPageSize(value)).toBeUndefined();
    expect([25, 50, 100, 250].map((size) => rememberedPageSize(String(size)))).toEqual([25, 50, 100, 250]);
  });

  it("starts again at the first page when a filter or the page size changes, and drops emptied filters", () => {
    const deep = nextPage(nextPage(listStateFrom({ status: "sent" }), "a"), "b");
    expect(withQuery(deep, { status: "returned", account_id: "acct_1" })).toEqual({
      query: { account_id: "acct_1", status: "returned" },
      history: [],
    });
    expect(withQuery(deep, { status: "" })).toEqual({ query: {}, history: [] });
  });

  it("keeps the saved view a list was opened from apart from the bank's query, through paging and filter changes", () => {
    const opened = listStateFrom(new URLSearchParams("status=returned&view=view_abc"));
    expect(opened).toEqual({ query: { status: "returned" }, history: [], view: "view_abc" });
    expect(searchOf(opened)).toBe("status=returned&view=view_abc");
    const paged = nextPage(opened, "ach_9");
    expect(paged.view).toBe("view_abc");
    expect(previousPage(paged)).toEqual(opened);
    expect(withQuery(paged, { status: "sent" })).toEqual({ query: { status: "sent" }, history: [], view: "view_abc" });
    expect(searchOf(withoutView(opened))).toBe("status=returned");
    expect(listStateFrom(new URLSearchParams("view="))).toEqual({ query: {}, history: [] });
  });
});
