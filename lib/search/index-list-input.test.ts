import { describe, expect, it } from "vitest";
import { encodeIndexCursor, parseIndexListQuery } from "./index-list-input";

// What reaches PostgreSQL from an index-served list's URL: every value either refused naming its field, or one the
// database reads. Each case below was a 500 before (the list, its /count and the events export alike).

const cursorOf = (value: unknown) => `ix.${Buffer.from(JSON.stringify(value)).toString("base64url")}`;

describe("an index-served list's query", () => {
  it.each([
    [{ page_cursor: cursorOf(["2020", "x"]) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf(["0000-01-01T00:00:00Z", "x"]) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf(["0000-01-01T00:00:00.000000Z", "ach_1"]) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf(["2026-11-23T10:00:00.000000Z", "ach_\u0000"]) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf(["2026-11-23T10:00:00.000000Z", ""]) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf(["2026-02-30T10:00:00.000000Z", "ach_1"]) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf({ createdAt: "2026-11-23T10:00:00.000000Z" }) }, "page_cursor: not a cursor of this list"],
    [{ page_cursor: cursorOf(["2026-11-23T10:00:00.000000Z", "ach_1", "extra"]) }, "page_cursor: not a cursor of this list"],
    [{ sort: "-amount", page_cursor: cursorOf(["amount", "125000", "ach_1"]) }, "page_cursor: not a cursor of this list"],
    [{ sort: "-amount", page_cursor: cursorOf(["-amount", "1e3; DROP", "ach_1"]) }, "page_cursor: not a cursor of this list"],
    [{ sort: "-amount", page_cursor: cursorOf(["2026-11-23T10:00:00.000000Z", "ach_1"]) }, "page_cursor: not a cursor of this list"],
    [{ sort: "colour" }, 'sort: cannot sort this list by "colour" (one of id, status,'],
    [{ sort: "-userdata" }, 'sort: cannot sort this list by "userdata"'],
    [{ created: "custom", created_to: "9999-12-31" }, "created_to: outside the dates the console keeps (0001-01-01 to 9999-12-30)"],
    [{ created: "custom", created_from: "0000-01-01" }, "created_from: outside the dates the console keeps"],
  ])("refuses %j naming the field", (params, message) => {
    const parsed = parseIndexListQuery("ach", params);
    expect(parsed.ok ? "" : parsed.error).toContain(message);
  });

  it("reads back the cursors it writes, and the widest range PostgreSQL reads", () => {
    const after = { value: "2026-11-23T10:00:00.123456Z", id: "ach_1" };
    expect(parseIndexListQuery("ach", { page_cursor: encodeIndexCursor(after) })).toMatchObject({ ok: true, page: { after } });
    const byAmount = { value: "125000", id: "ach_1" };
    const sorted = encodeIndexCursor(byAmount, { column: "amount", descending: true });
    expect(parseIndexListQuery("ach", { sort: "-amount", page_cursor: sorted })).toMatchObject({ ok: true, page: { after: byAmount } });
    expect(parseIndexListQuery("ach", { created: "custom", created_from: "0001-01-01", created_to: "9999-12-30" })).toMatchObject({
      ok: true,
      page: { filter: { createdFrom: new Date("0001-01-01T00:00:00Z"), createdBefore: new Date("9999-12-31T00:00:00Z") } },
    });
  });
});
