import { describe, expect, it } from "vitest";
import { parseIndexListQuery } from "@/lib/search/index-list-input";
import { dayStartIn, daysEndingAt } from "./zone-days";

describe("days in the staff member's time zone", () => {
  it("start at that zone's midnight", () => {
    expect(dayStartIn(new Date("2026-11-28T03:00:00Z"), "America/New_York").toISOString()).toBe("2026-11-27T05:00:00.000Z");
    expect(dayStartIn(new Date("2026-11-28T23:59:59Z"), "UTC").toISOString()).toBe("2026-11-28T00:00:00.000Z");
    expect(dayStartIn(new Date("2026-11-28T20:00:00Z"), "Asia/Kolkata").toISOString()).toBe("2026-11-28T18:30:00.000Z");
  });

  it("end where the next begins, 23 or 25 hours long across a daylight-saving change", () => {
    const days = daysEndingAt(new Date("2026-11-02T12:00:00Z"), "America/New_York", 3);
    expect(days.map((day) => day.day)).toEqual(["2026-10-31", "2026-11-01", "2026-11-02"]);
    expect(days[1]!.from.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(days[1]!.before.toISOString()).toBe("2026-11-02T05:00:00.000Z");
    for (const [index, day] of days.entries()) if (index > 0) expect(day.from).toEqual(days[index - 1]!.before);
    const spring = daysEndingAt(new Date("2026-03-08T12:00:00Z"), "America/New_York", 1)[0]!;
    expect((spring.before.getTime() - spring.from.getTime()) / 3_600_000).toBe(23);
  });

  it("give fourteen days ending today, oldest first", () => {
    const days = daysEndingAt(new Date("2026-11-28T10:00:00Z"), "UTC", 14);
    expect(days).toHaveLength(14);
    expect(days[0]!.day).toBe("2026-11-15");
    expect(days.at(-1)).toEqual({ day: "2026-11-28", from: new Date("2026-11-28T00:00:00Z"), before: new Date("2026-11-29T00:00:00Z") });
  });
});

describe("the list filters Home links with (created_in, updated_in)", () => {
  it("take a half-open range of UTC instants, either end open, and name the filter when malformed", () => {
    const read = (query: Record<string, string>) => parseIndexListQuery("ach", query);
    expect(read({ updated_in: "2026-11-28T05:00:00Z/2026-11-29T05:00:00Z" })).toMatchObject({
      ok: true,
      page: { filter: { updatedFrom: new Date("2026-11-28T05:00:00Z"), updatedBefore: new Date("2026-11-29T05:00:00Z") } },
    });
    expect(read({ created_in: "/2026-11-29T05:00:00.500Z" })).toMatchObject({
      ok: true,
      page: { filter: { createdBefore: new Date("2026-11-29T05:00:00.500Z") } },
    });
    for (const [query, message] of [
      [{ updated_in: "yesterday" }, "updated_in: expected <from>/<before>"],
      [{ updated_in: "/" }, "updated_in: expected <from>/<before>"],
      [{ updated_in: "2026-11-28/2026-11-29" }, "updated_in: expected <from>/<before>"],
      [{ updated_in: "2026-11-29T00:00:00Z/2026-11-28T00:00:00Z" }, "updated_in: the end must be after the start"],
      [{ created_in: "0000-01-01T00:00:00Z/" }, "created_in: outside the dates the console keeps"],
      [{ created_in: "2026-11-28T00:00:00Z/", created: "today" }, "created_in: give either created or created_in"],
    ] as const) {
      expect(read(query), JSON.stringify(query)).toEqual({ ok: false, error: expect.stringContaining(message) });
    }
  });
});
