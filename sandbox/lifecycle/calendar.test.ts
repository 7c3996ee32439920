import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  achEffectiveDate,
  achScheduledSettlement,
  addDays,
  bankDateOf,
  bankHolidays,
  businessDayOnOrAfter,
  closingOf,
  estimatedSettlementAt,
  isBankHoliday,
  isBusinessDay,
  isWithinOperatingHours,
  nextBusinessDay,
  openingOf,
} from "./calendar";

const instants = fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2090-12-31T23:59:59Z"), noInvalidDate: true });

describe("bank holidays", () => {
  it("lists the eleven federal holidays of 2025 on the Federal Reserve's dates", () => {
    expect(bankHolidays(2025).map((holiday) => holiday.date)).toEqual([
      "2025-01-01",
      "2025-01-20",
      "2025-02-17",
      "2025-05-26",
      "2025-06-19",
      "2025-07-04",
      "2025-09-01",
      "2025-10-13",
      "2025-11-11",
      "2025-11-27",
      "2025-12-25",
    ]);
  });

  it("moves a holiday falling on a Sunday to the Monday after", () => {
    // 2022: Juneteenth and Christmas fell on Sundays; 2023: New Year's Day did.
    expect(isBankHoliday("2022-06-20")).toBe(true);
    expect(isBankHoliday("2022-12-26")).toBe(true);
    expect(isBankHoliday("2023-01-02")).toBe(true);
    expect(isBankHoliday("2022-12-25")).toBe(false);
  });

  it("does not move a holiday falling on a Saturday (the Federal Reserve is open the Friday before)", () => {
    // Independence Day 2026 is a Saturday; Christmas 2021 was one.
    expect(isBankHoliday("2026-07-03")).toBe(false);
    expect(isBusinessDay("2026-07-03")).toBe(true);
    expect(isBusinessDay("2021-12-24")).toBe(true);
    expect(bankHolidays(2026).some((holiday) => holiday.name === "Independence Day")).toBe(false);
  });

  it("computes the floating holidays by rule in any year", () => {
    expect(bankHolidays(2030).map((holiday) => holiday.date)).toContain("2030-11-28"); // 4th Thursday of November
    expect(bankHolidays(2030).map((holiday) => holiday.date)).toContain("2030-05-27"); // last Monday of May
    expect(bankHolidays(2019).some((holiday) => holiday.name.startsWith("Juneteenth"))).toBe(false); // before 2021
  });

  it("puts every holiday on a weekday: each listed date is Monday to Friday", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990, max: 2100 }), (year) => {
        for (const holiday of bankHolidays(year)) {
          const weekday = new Date(`${holiday.date}T00:00:00Z`).getUTCDay();
          expect(weekday).toBeGreaterThanOrEqual(1);
          expect(weekday).toBeLessThanOrEqual(5);
        }
      }),
    );
  });
});

describe("business days", () => {
  it("excludes weekends and holidays", () => {
    expect(isBusinessDay("2025-11-22")).toBe(false); // Saturday
    expect(isBusinessDay("2025-11-23")).toBe(false); // Sunday
    expect(isBusinessDay("2025-11-27")).toBe(false); // Thanksgiving
    expect(isBusinessDay("2025-11-28")).toBe(true);
  });

  it("reads an instant as its date in New York", () => {
    // Saturday 01:00 UTC is still Friday evening in New York.
    expect(bankDateOf(new Date("2025-11-22T01:00:00Z"))).toBe("2025-11-21");
    expect(isBusinessDay(new Date("2025-11-22T01:00:00Z"))).toBe(true);
  });

  it("skips a holiday weekend to find the next business day", () => {
    expect(nextBusinessDay("2025-08-29")).toBe("2025-09-02"); // Friday before Labor Day
    expect(businessDayOnOrAfter("2025-09-01")).toBe("2025-09-02");
    expect(businessDayOnOrAfter("2025-09-02")).toBe("2025-09-02");
  });

  it("rejects malformed dates, naming the value", () => {
    expect(() => isBusinessDay("2025-02-30")).toThrow(/2025-02-30/);
    expect(() => addDays("yesterday", 1)).toThrow(/yesterday/);
  });
});

describe("operating hours", () => {
  it("opens at 08:00 and closes at 18:00 New York time, in winter and in summer", () => {
    expect(openingOf("2025-01-15").toISOString()).toBe("2025-01-15T13:00:00.000Z"); // EST, UTC-5
    expect(closingOf("2025-07-15").toISOString()).toBe("2025-07-15T22:00:00.000Z"); // EDT, UTC-4
  });

  it("includes the opening instant and excludes the closing instant", () => {
    expect(isWithinOperatingHours(new Date("2025-01-15T13:00:00Z"))).toBe(true);
    expect(isWithinOperatingHours(new Date("2025-01-15T12:59:59Z"))).toBe(false);
    expect(isWithinOperatingHours(new Date("2025-01-15T22:59:59Z"))).toBe(true);
    expect(isWithinOperatingHours(new Date("2025-01-15T23:00:00Z"))).toBe(false);
  });

  it("is closed all day on holidays", () => {
    expect(isWithinOperatingHours(new Date("2025-12-25T16:00:00Z"))).toBe(false);
  });
});

describe("estimated settlement", () => {
  it("is the creation time itself while the bank is open", () => {
    const createdAt = new Date("2025-03-12T15:30:07Z");
    expect(estimatedSettlementAt(createdAt).toISOString()).toBe("2025-03-12T15:30:07.000Z");
  });

  it("is the same day's opening when created before opening on a business day", () => {
    expect(estimatedSettlementAt(new Date("2025-03-12T10:00:00Z")).toISOString()).toBe("2025-03-12T12:00:00.000Z");
  });

  it("is the next business day's opening when created after closing, over a weekend and a holiday", () => {
    // Friday 2025-08-29 19:00 New York -> Tuesday 2025-09-02 08:00 (Labor Day Monday).
    expect(estimatedSettlementAt(new Date("2025-08-29T23:00:00Z")).toISOString()).toBe("2025-09-02T12:00:00.000Z");
  });

  it("is never before the creation time, always within operating hours, never on a weekend or holiday", () => {
    fc.assert(
      fc.property(instants, (createdAt) => {
        const settlement = estimatedSettlementAt(createdAt);
        expect(settlement.getTime()).toBeGreaterThanOrEqual(createdAt.getTime());
        expect(isWithinOperatingHours(settlement)).toBe(true);
        expect(isBusinessDay(bankDateOf(settlement))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("is the earliest open instant: nothing between creation and settlement is within operating hours", () => {
    fc.assert(
      fc.property(instants, fc.double({ min: 0, max: 1, noNaN: true }), (createdAt, fraction) => {
        const settlement = estimatedSettlementAt(createdAt);
        const between = new Date(createdAt.getTime() + Math.floor((settlement.getTime() - createdAt.getTime()) * fraction));
        if (between < settlement) expect(isWithinOperatingHours(between)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("ACH effective date", () => {
  it("is the same business day for a same-day entry before 16:00 New York time", () => {
    expect(achEffectiveDate(new Date("2025-03-12T19:59:59Z"), "sameday")).toBe("2025-03-12");
    expect(achEffectiveDate(new Date("2025-03-12T20:00:00Z"), "sameday")).toBe("2025-03-13");
  });

  it("is the next business day for a standard entry, skipping weekends and holidays", () => {
    expect(achEffectiveDate(new Date("2025-03-12T14:00:00Z"), "standard")).toBe("2025-03-13");
    expect(achEffectiveDate(new Date("2025-08-29T14:00:00Z"), "standard")).toBe("2025-09-02");
    expect(achEffectiveDate(new Date("2025-08-30T14:00:00Z"), "sameday")).toBe("2025-09-02");
  });

  it("settles standard entries at 08:30 and same-day entries at 17:00 New York time on the effective date", () => {
    expect(achScheduledSettlement("2025-03-13", "standard").toISOString()).toBe("2025-03-13T12:30:00.000Z");
    expect(achScheduledSettlement("2025-01-13", "sameday").toISOString()).toBe("2025-01-13T22:00:00.000Z");
  });

  it("is always a business day after or on the creation date", () => {
    fc.assert(
      fc.property(instants, fc.constantFrom("standard" as const, "sameday" as const), (createdAt, service) => {
        const effective = achEffectiveDate(createdAt, service);
        expect(isBusinessDay(effective)).toBe(true);
        expect(effective >= bankDateOf(createdAt)).toBe(true);
      }),
    );
  });
});
