import { describe, expect, it } from "vitest";
import {
  axisTimes,
  exactTime,
  exactUtc,
  formatDateTime,
  formatDocumentTime,
  formatTimestamp,
  isTimeZone,
  relativeTime,
  strayTimes,
  timeInMessage,
  zoneName,
} from "./time";

// One way to show a time: "Nov 28, 08:43" in the staff member's zone (the year added when not this year), the exact
// second with the zone on hover. strayTimes finds every other way in a page's text.

const oneFormat = /^[A-Z][a-z]{2} \d{1,2}(, \d{4})?, \d{2}:\d{2}$/;

describe("the one time format", () => {
  const now = Date.parse("2026-11-28T12:00:00Z");

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

  it("is how a server's message writes a time, in UTC with the zone said, never the ISO form", () => {
    expect(timeInMessage("2026-11-28T14:02:09.123Z", now)).toBe("Nov 28, 14:02 (UTC)");
    expect(timeInMessage("2025-11-28T14:02:09Z", now)).toBe("Nov 28, 2025, 14:02 (UTC)");
    expect(strayTimes(`The bank is not answering since ${timeInMessage("2026-11-28T14:02:09Z", now)}.`)).toEqual([]);
    expect(timeInMessage("not a time", now)).toBe("not a time");
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

  it("writes the year always in a document read later (the case record), still in the one format", () => {
    expect(formatDocumentTime("2026-11-28T08:43:09Z", "UTC")).toBe("Nov 28, 2026, 08:43");
    expect(formatDocumentTime("2026-11-28T08:43:09Z", "UTC")).toMatch(oneFormat);
    expect(formatDocumentTime("not a time", "UTC")).toBe("not a time");
  });

  it("labels a chart's time axis in the staff member's zone, as fine as its step, the day written when it spans days", () => {
    const seconds = ["2026-11-20T10:00:00Z", "2026-11-20T10:00:05Z"];
    expect(axisTimes(seconds, "UTC", 5_000)).toEqual(["10:00:00", "10:00:05"]);
    expect(axisTimes(seconds, "Europe/Berlin", 60_000)).toEqual(["11:00", "11:00"]);
    expect(axisTimes(["2026-11-20T23:00:00Z", "2026-11-21T02:00:00Z"], "UTC", 3_600_000)).toEqual(["Nov 20, 23:00", "Nov 21, 02:00"]);
    // The same hours in New York fall on one day there.
    expect(axisTimes(["2026-11-20T23:00:00Z", "2026-11-21T02:00:00Z"], "America/New_York", 3_600_000)).toEqual(["18:00", "21:00"]);
    // Day-sized steps are UTC days, in any zone.
    expect(axisTimes(["2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"], "America/New_York", 24 * 3_600_000)).toEqual(["Nov 1", "Nov 2"]);
    expect(strayTimes(axisTimes(seconds, "UTC", 5_000).join(" "))).toEqual([]);
  });

  it("keeps the exact second for the hover, which is not page text", () => {
    expect(exactTime("2026-11-28T08:43:09Z", "America/New_York")).toBe("2026-11-28 03:43:09 EST (America/New_York)");
  });
});

describe("times in the staff member's zone", () => {
  const now = Date.parse("2026-11-23T15:00:00Z");
  const at = "2026-11-17T14:02:09Z";

  it("show the same instant in UTC and in two zones, with the relative form beside it", () => {
    expect(formatDateTime(at, "UTC", now)).toBe("Nov 17, 14:02");
    expect(formatDateTime(at, "Europe/Berlin", now)).toBe("Nov 17, 15:02");
    expect(formatDateTime(at, "America/Los_Angeles", now)).toBe("Nov 17, 06:02");
    expect(formatTimestamp(at, "UTC", now)).toBe("Nov 17, 14:02 · 6 days ago");
    expect(formatTimestamp(at, "Asia/Tokyo", now)).toBe("Nov 17, 23:02 · 6 days ago");
  });

  it("cross midnight and the year in the zone shown, naming the year only when it is not the current one", () => {
    expect(formatDateTime("2026-11-17T23:30:00Z", "Asia/Tokyo", now)).toBe("Nov 18, 08:30");
    expect(formatDateTime("2026-11-18T00:05:00Z", "UTC", now)).toBe("Nov 18, 00:05");
    expect(formatDateTime("2025-12-31T23:30:00Z", "UTC", now)).toBe("Dec 31, 2025, 23:30");
    expect(formatDateTime("2025-12-31T23:30:00Z", "Europe/Berlin", now)).toBe("Jan 1, 00:30");
  });

  it("give the exact second and the zone for the tooltip", () => {
    expect(exactTime(at, "UTC")).toBe("2026-11-17 14:02:09 UTC");
    expect(exactTime(at, "Europe/Berlin")).toBe("2026-11-17 15:02:09 GMT+1 (Europe/Berlin)");
    expect(exactTime(at, "America/New_York")).toBe("2026-11-17 09:02:09 EST (America/New_York)");
    expect(zoneName("2026-07-01T00:00:00Z", "America/New_York")).toBe("EDT");
    expect(exactUtc("2026-11-23T11:57:00Z")).toBe("2026-11-23 11:57:00 UTC");
  });

  it("write UTC exactly as the platform's formatter does, over centuries, leap days and the last second of a year", () => {
    // On the server, where this runs, UTC is read off the date's own UTC form and every other zone goes through Intl:
    // "Etc/GMT" is the same clock through Intl.
    let seed = 1;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const instants = [
      "2024-02-29T00:00:00Z",
      "2026-12-31T23:59:59.999Z",
      "2000-01-01T00:00:00Z",
      "1000-01-01T00:00:00Z",
      "9999-12-31T23:59:59Z",
      "0999-12-31T23:59:59Z",
      ...Array.from({ length: 500 }, () => new Date(Date.UTC(1970, 0, 1) + Math.floor(random() * 130 * 365.25 * 86_400_000)).toISOString()),
    ];
    for (const iso of instants) {
      expect(formatDateTime(iso, "UTC", now)).toBe(formatDateTime(iso, "Etc/GMT", now));
      expect(formatDocumentTime(iso, "Etc/UTC")).toBe(formatDocumentTime(iso, "Etc/GMT"));
      expect(exactTime(iso, "UTC")).toBe(exactTime(iso, "Etc/GMT"));
      if (!iso.startsWith("0")) expect(exactTime(iso, "UTC")).toBe(`${iso.slice(0, 19).replace("T", " ")} UTC`);
    }
    expect(axisTimes(instants.slice(6, 20), "UTC", 60_000)).toEqual(axisTimes(instants.slice(6, 20), "Etc/GMT", 60_000));
  });

  it("say times relative to now", () => {
    expect(relativeTime("2026-11-23T14:57:00Z", now)).toBe("3 minutes ago");
    expect(relativeTime("2026-11-25T15:00:00Z", now)).toBe("in 2 days");
    expect(relativeTime("2026-11-22T15:00:00Z", now)).toBe("yesterday");
  });

  it("leave what is not a time as it came, and know real zones from made-up ones", () => {
    expect(formatDateTime("soon", "UTC", now)).toBe("soon");
    expect(formatTimestamp("soon", "UTC", now)).toBe("soon");
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
  });
});
