import { describe, expect, it } from "vitest";
import { enumWords, exactTime, formatCalendarDate, formatDateTime, formatFieldText, formatPhone, strayTimes } from "./format";

// One way to show a time: "Nov 28, 08:43" in the staff member's zone (the year added when not this year), the exact
// second with the zone on hover. strayTimes finds every other way in a page's text.

const oneFormat = /^[A-Z][a-z]{2} \d{1,2}(, \d{4})?, \d{2}:\d{2}$/;
const now = Date.parse("2026-11-28T12:00:00Z");

describe("the one time format", () => {
  it("is what formatDateTime writes, in any zone, this year or not", () => {
    for (const [iso, zone] of [
      ["2026-11-28T08:43:09Z", "UTC"],
      ["2026-11-28T08:43:09.123Z", "America/New_York"],
      ["2025-01-02T23:59:59Z", "Asia/Kolkata"],
    ] as const) {
      const shown = formatDateTime(iso, zone, now);
      expect(shown).toMatch(oneFormat);
      expect(strayTimes(shown)).toEqual([]);
    }
    expect(formatDateTime("2026-11-28T08:43:09Z", "UTC", now)).toBe("Nov 28, 08:43");
    expect(formatDateTime("2025-11-28T08:43:09Z", "UTC", now)).toBe("Nov 28, 2025, 08:43");
  });

  it("finds every other way of writing a time or a date in a page's text", () => {
    const page = [
      "Created 2026-11-28T15:36:44Z",
      "seen 2026-11-28T15:36:44.123Z",
      "at 2026-11-28 15:36:44",
      "as of 2026-11-23 14:05:09 UTC",
      "since 15:36 UTC",
      "due 2026-11-28",
      "offset 2026-11-28T10:36:44-05:00",
    ].join("; ");
    expect(strayTimes(page)).toEqual([
      "2026-11-28T15:36:44Z",
      "2026-11-28T15:36:44.123Z",
      "2026-11-28 15:36:44",
      "2026-11-23 14:05:09 UTC",
      "15:36 UTC",
      "2026-11-28",
      "2026-11-28T10:36:44-05:00",
    ]);
    expect(strayTimes("Nov 28, 08:43 · 3 hours ago; Nov 28, 2025, 08:43; ach_20261128; $1,352.14")).toEqual([]);
  });

  it("keeps the exact second for the hover, which is not page text", () => {
    expect(exactTime("2026-11-28T08:43:09Z", "America/New_York")).toBe("2026-11-28 03:43:09 EST (America/New_York)");
  });
});

describe("values as people write them", () => {
  it("shows a date of birth as a date", () => {
    expect(formatCalendarDate("1943-05-12")).toBe("May 12, 1943");
    expect(formatFieldText("date", "1943-05-12")).toBe("May 12, 1943");
  });

  it("groups a phone number", () => {
    expect(formatPhone("+13035550176")).toBe("+1 303 555 0176");
    expect(formatPhone("3035550176")).toBe("+1 303 555 0176");
    expect(formatPhone("(303) 555-0176")).toBe("+1 303 555 0176");
    expect(formatPhone("+442079460958")).toBe("+442079460958");
    expect(formatFieldText("phone", "+13035550176")).toBe("+1 303 555 0176");
    // A mask stays as it is.
    expect(formatPhone("*******0176")).toBe("*******0176");
    expect(formatFieldText("phone", "[masked]")).toBe("[masked]");
  });

  it("writes identification types as people do", () => {
    expect(["ssn", "itin", "ein", "tin", "passport"].map(enumWords)).toEqual(["SSN", "ITIN", "EIN", "TIN", "Passport"]);
  });
});
