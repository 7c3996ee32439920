import { describe, expect, it } from "vitest";
import { strayTimes } from "@/lib/format";
import { bankCreatedWords, instantRangeWords } from "./created-words";

describe("the bank's creation dates in words (from_date inclusive, to_date exclusive)", () => {
  it("says nothing for any time", () => {
    expect(bankCreatedWords(undefined, undefined)).toBeNull();
    expect(bankCreatedWords("", "")).toBeNull();
  });

  it("says one end alone as the bank reads it", () => {
    expect(bankCreatedWords("2026-11-01", undefined)).toBe("from Nov 1, 2026 (UTC)");
    expect(bankCreatedWords(undefined, "2026-11-05")).toBe("before Nov 5, 2026 (UTC)");
  });

  it("says a range by the last day it holds, and one whole day as that day", () => {
    expect(bankCreatedWords("2026-11-01", "2026-11-05")).toBe("Nov 1, 2026 to Nov 4, 2026 (UTC)");
    expect(bankCreatedWords("2026-11-01", "2026-11-02")).toBe("on Nov 1, 2026 (UTC)");
    expect(bankCreatedWords("2026-12-31", "2027-01-01")).toBe("on Dec 31, 2026 (UTC)");
    expect(bankCreatedWords("2024-02-28", "2024-03-01")).toBe("Feb 28, 2024 to Feb 29, 2024 (UTC)");
  });

  it("says an empty or malformed range as it is, for the bank's answer to explain", () => {
    expect(bankCreatedWords("2026-11-05", "2026-11-05")).toBe("from Nov 5, 2026, before Nov 5, 2026 (UTC)");
    expect(bankCreatedWords("2026-11-01", "yesterday")).toBe("from Nov 1, 2026, before yesterday (UTC)");
  });

  it("writes no time in another format than the one", () => {
    for (const words of [bankCreatedWords("2026-11-01", "2026-11-05"), bankCreatedWords("2026-11-01", undefined)])
      expect(strayTimes(words!)).toEqual([]);
  });
});

describe("a range of instants in words (created_in, updated_in)", () => {
  const now = Date.parse("2026-11-29T12:00:00Z");

  it("says a whole day in the zone as that day", () => {
    expect(instantRangeWords("2026-11-28T05:00:00Z/2026-11-29T05:00:00Z", "America/New_York", now)).toBe("on Nov 28");
    expect(instantRangeWords("2026-11-28T00:00:00Z/2026-11-29T00:00:00Z", "UTC", now)).toBe("on Nov 28");
    // The day the clocks go back in New York is 25 hours long.
    expect(instantRangeWords("2026-11-01T04:00:00Z/2026-11-02T05:00:00Z", "America/New_York", now)).toBe("on Nov 1");
  });

  it("says other ranges and open ends in the one time format", () => {
    expect(instantRangeWords("2026-11-28T05:00:00Z/2026-11-29T05:00:00Z", "UTC", now)).toBe("from Nov 28, 05:00 until Nov 29, 05:00");
    expect(instantRangeWords("2026-11-28T05:00:00Z/", "UTC", now)).toBe("from Nov 28, 05:00");
    expect(instantRangeWords("/2025-11-29T00:00:00Z", "UTC", now)).toBe("before Nov 29, 2025, 00:00");
    for (const range of ["2026-11-28T05:00:00Z/2026-11-29T05:00:00Z", "2026-11-28T05:00:00Z/"])
      expect(strayTimes(instantRangeWords(range, "Europe/Berlin", now))).toEqual([]);
  });
});
