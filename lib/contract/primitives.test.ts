import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { date, isCalendarDate } from "./primitives";

/** The obvious definition: a day is real when a Date made from it prints back the same day. */
const roundTrips = (value: string) => {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};
const pad = (value: number, width: number) => String(value).padStart(width, "0");

describe("calendar dates", () => {
  it("accepts exactly the days a Date round trip accepts from year 1 on, leap years included", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const value = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        expect(isCalendarDate(value), value).toBe(year >= 1 && roundTrips(value));
      }),
      { numRuns: 20_000, seed: 20261123 },
    );
  });

  it.each(["2024-02-29", "2000-02-29", "2023-12-31"])("accepts %s", (value) => expect(date.safeParse(value).success).toBe(true));
  it.each([
    "2023-02-29",
    "1900-02-29",
    "2023-04-31",
    "2023-00-10",
    "2023-13-01",
    "0000-01-01",
    "0000-02-29",
    "2023-1-01",
    "2023-01-01T00:00:00Z",
    "２０２３-01-01",
  ])("refuses %s", (value) => expect(date.safeParse(value).success).toBe(false));
});
