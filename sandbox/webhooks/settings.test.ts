import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { nominalRetryDelayMs, retryDelayMs } from "./settings";

const defaults = { retryBaseMs: 1000, retryCapMs: 3_600_000 };

describe("retry schedule", () => {
  it("doubles the nominal delay from the base on every retry until the cap", () => {
    const delays = Array.from({ length: 15 }, (_, index) => nominalRetryDelayMs(defaults, index + 1));
    expect(delays.slice(0, 12)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048].map((s) => s * 1000));
    expect(delays.slice(12)).toEqual([3_600_000, 3_600_000, 3_600_000]);
  });

  it("waits between half and all of the nominal delay (equal jitter)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const nominal = nominalRetryDelayMs(defaults, attempt);
        const delay = retryDelayMs(defaults, attempt, () => random);
        expect(delay).toBeGreaterThanOrEqual(nominal / 2);
        expect(delay).toBeLessThanOrEqual(nominal);
      }),
    );
  });

  it("never waits less after a later failure than after an earlier one while below the cap, whatever the jitter", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 11 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, early, late) => {
          expect(retryDelayMs(defaults, attempt + 1, () => late)).toBeGreaterThanOrEqual(retryDelayMs(defaults, attempt, () => early));
        },
      ),
    );
  });
});
