import { describe, expect, it } from "vitest";
import { momentRange, parseEventsQuery } from "./events-list-input";

describe("the events page's query string", () => {
  const parse = (search: string) => parseEventsQuery(new URLSearchParams(search), "sandbox");

  it("reads filters and paging, the environment defaulting to the active one and empty fields ignored", () => {
    expect(
      parse(
        "event=ach.update&object=ach_1&from=2026-11-01&to=2026-11-30T10:15&outcome=error&page_size=25&page_cursor=42&prev_cursors=90,61&environment=",
      ),
    ).toEqual({
      ok: true,
      page: {
        filter: { environment: "sandbox", event: "ach.update", object: "ach_1", from: "2026-11-01", to: "2026-11-30T10:15", outcome: "error" },
        pageSize: 25,
        after: 42,
        state: expect.objectContaining({ history: ["90", "61"] }),
      },
    });
    expect(parseEventsQuery({ environment: "production", object: " ach_2 " }, "sandbox")).toMatchObject({
      ok: true,
      page: { filter: { environment: "production", object: "ach_2" }, pageSize: 50 },
    });
  });

  it.each([
    ["from=2026-13-01", "from: expected a UTC date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM)"],
    ["to=2026-02-30", "to: expected a UTC date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM)"],
    ["from=yesterday", "from: expected a UTC date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM)"],
    ["from=2026-11-02&to=2026-11-01", "from: must not be after to"],
    ["outcome=lost", "outcome: expected one of pending, error, changed, unchanged, older, gone"],
    ["environment=staging", "environment: expected one of sandbox, production"],
    ["event=ach.delete", "event: expected one of"],
    ["object=ach 1", "object: expected an object id"],
    ["page_cursor=abc", "page_cursor: expected the id of an event"],
    ["page_cursor=0", "page_cursor: expected the id of an event"],
    ["prev_cursors=1,x", "prev_cursors: expected the id of an event"],
    ["page_size=0", "page_size: expected 1 to 250"],
    ["page_size=251", "page_size: expected 1 to 250"],
    ["page_size=2.5", "page_size: expected a whole number"],
    ["status=sent", "unknown filter: status"],
    // The end of `to` (the next day, minute or second) must still be a time PostgreSQL reads (was a 500).
    ["to=9999-12-31", "to: outside the dates the console keeps (0001-01-01 to 9999-12-30)"],
    ["to=9999-12-31T23:59", "to: outside the dates the console keeps"],
    ["from=9999-12-31", "from: outside the dates the console keeps"],
  ])("refuses %s naming the field", (search, message) => {
    const parsed = parse(search);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.error).toContain(message);
  });

  it("takes the first and last days PostgreSQL reads", () => {
    expect(parse("from=0001-01-01&to=9999-12-30").ok).toBe(true);
    expect(parse("to=9999-12-31T23:58").ok).toBe(true);
  });

  it("gives a date its day, a minute its minute and a second its second", () => {
    expect(momentRange("2026-11-01")).toEqual({ start: new Date("2026-11-01T00:00:00Z"), end: new Date("2026-11-02T00:00:00Z") });
    expect(momentRange("2026-11-01T23:59")).toEqual({ start: new Date("2026-11-01T23:59:00Z"), end: new Date("2026-11-02T00:00:00Z") });
    expect(momentRange("2026-11-01T10:15:30Z")).toEqual({ start: new Date("2026-11-01T10:15:30Z"), end: new Date("2026-11-01T10:15:31Z") });
    expect(momentRange("2026-11-01T24:00")).toBeUndefined();
  });
});
