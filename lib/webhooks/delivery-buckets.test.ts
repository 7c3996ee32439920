import { describe, expect, it } from "vitest";
import { bucketSizeFor, countTicks, deliveryBuckets, describeSpan, maxBuckets, minBuckets } from "./delivery-buckets";

const at = (iso: string, succeeded = true) => ({ attempted_at: iso, succeeded });

describe("delivery chart buckets", () => {
  it("sizes buckets to the span: seconds for a burst, minutes for an hour, hours for a day, days for weeks", () => {
    expect(bucketSizeFor(0).label).toBe("1 s");
    expect(bucketSizeFor(20_000).label).toBe("1 s");
    expect(bucketSizeFor(29_999).label).toBe("1 s");
    expect(bucketSizeFor(30_000).label).toBe("5 s");
    expect(bucketSizeFor(60 * 60_000).label).toBe("5 min");
    expect(bucketSizeFor(24 * 3_600_000).label).toBe("1 h");
    expect(bucketSizeFor(14 * 24 * 3_600_000).label).toBe("12 h");
    expect(bucketSizeFor(20 * 24 * 3_600_000).label).toBe("1 day");
    expect(bucketSizeFor(400 * 24 * 3_600_000).label).toBe("7 days");
  });

  it("never draws more than the maximum number of bars, and fills the gaps between attempts with empty buckets", () => {
    for (const spanMs of [0, 999, 31_000, 3_599_000, 86_400_000, 9 * 86_400_000]) {
      const result = deliveryBuckets([at("2026-11-20T10:00:00Z"), at(new Date(Date.parse("2026-11-20T10:00:00Z") + spanMs).toISOString(), false)]);
      expect(result.buckets.length, String(spanMs)).toBeLessThanOrEqual(maxBuckets);
      expect(result.buckets.length, String(spanMs)).toBeGreaterThanOrEqual(minBuckets);
      expect(result.delivered + result.failed).toBe(2);
      expect(result.buckets.reduce((sum, bucket) => sum + bucket.delivered + bucket.failed, 0)).toBe(2);
    }
    const gappy = deliveryBuckets([at("2026-11-20T10:00:00Z"), at("2026-11-20T10:00:20Z", false)]);
    expect(gappy.sizeLabel).toBe("1 s");
    expect(gappy.buckets).toHaveLength(21);
    expect(gappy.buckets[0]).toEqual({ start: "2026-11-20T10:00:00.000Z", label: "10:00:00", delivered: 1, failed: 0 });
    expect(gappy.buckets[10]).toMatchObject({ delivered: 0, failed: 0 });
    expect(gappy.buckets[20]).toEqual({ start: "2026-11-20T10:00:20.000Z", label: "10:00:20", delivered: 0, failed: 1 });
  });

  it("counts delivered and failed per bucket whatever the order of the page (newest first from the bank)", () => {
    const result = deliveryBuckets([
      at("2026-11-20T10:44:00Z", false),
      at("2026-11-20T10:31:00Z"),
      at("2026-11-20T10:30:10Z", false),
      at("2026-11-20T10:02:00Z"),
      at("2026-11-20T10:00:00Z"),
    ]);
    expect(result.sizeLabel).toBe("5 min");
    expect(result.from).toBe("2026-11-20T10:00:00.000Z");
    expect(result.to).toBe("2026-11-20T10:44:00.000Z");
    expect(result.buckets.map((bucket) => [bucket.label, bucket.delivered, bucket.failed])).toEqual([
      ["09:45", 0, 0],
      ["09:50", 0, 0],
      ["09:55", 0, 0],
      ["10:00", 2, 0],
      ["10:05", 0, 0],
      ["10:10", 0, 0],
      ["10:15", 0, 0],
      ["10:20", 0, 0],
      ["10:25", 0, 0],
      ["10:30", 1, 1],
      ["10:35", 0, 0],
      ["10:40", 0, 1],
    ]);
  });

  it("labels with the date when the attempts span midnight or buckets are days", () => {
    const overnight = deliveryBuckets([at("2026-11-20T23:00:00Z"), at("2026-11-21T02:00:00Z")]);
    expect(overnight.buckets[0]!.label).toBe("Nov 20 23:00");
    expect(overnight.buckets.at(-1)!.label).toBe("Nov 21 02:00");
    const weeks = deliveryBuckets([at("2026-11-01T08:00:00Z"), at("2026-11-20T08:00:00Z")]);
    expect(weeks.sizeLabel).toBe("1 day");
    expect(weeks.buckets[0]!.label).toBe("Nov 1");
  });

  it("draws a burst within one bucket as the last of the minimum number of buckets, not one bar across the chart", () => {
    const burst = deliveryBuckets([at("2026-11-20T10:00:06Z", false)]);
    expect(burst.sizeLabel).toBe("1 s");
    expect(burst.buckets).toHaveLength(minBuckets);
    expect(burst.buckets[0]!.label).toBe("09:59:55");
    expect(burst.buckets.at(-1)).toEqual({ start: "2026-11-20T10:00:06.000Z", label: "10:00:06", delivered: 0, failed: 1 });
  });

  it("has no buckets without attempts", () => {
    expect(deliveryBuckets([])).toMatchObject({ buckets: [], delivered: 0, failed: 0, from: null, to: null });
  });

  it("says a span in its two largest units", () => {
    expect(describeSpan(0)).toBe("under 1 s");
    expect(describeSpan(42_000)).toBe("42 s");
    expect(describeSpan(250_000)).toBe("4 min 10 s");
    expect(describeSpan(3_600_000)).toBe("1 h");
    expect(describeSpan(7_500_000)).toBe("2 h 5 min");
    expect(describeSpan(86_400_000 + 4 * 3_600_000)).toBe("1 day 4 h");
    expect(describeSpan(3 * 86_400_000)).toBe("3 days");
  });
});

describe("the chart's y-axis", () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [4, [0, 1, 2, 3, 4]],
    [5, [0, 2, 4, 6]],
    [7, [0, 2, 4, 6, 8]],
    [12, [0, 5, 10, 15]],
    [37, [0, 10, 20, 30, 40]],
    [160, [0, 50, 100, 150, 200]],
  ])("counts up to %i in whole steps: %j", (max, ticks) => {
    expect(countTicks(max)).toEqual(ticks);
  });
});
