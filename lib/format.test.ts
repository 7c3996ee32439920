import { describe, expect, it } from "vitest";
import { exactUtc, formatMoney, inSentence, relativeTime, shortId, statusTone, valueAt } from "./format";

describe("formatting for lists and details", () => {
  it("groups money by thousands without going through a float", () => {
    expect(formatMoney("1234567.50")).toBe("1,234,567.50");
    expect(formatMoney("99999999999999999.99")).toBe("99,999,999,999,999,999.99");
    expect(formatMoney("0.07")).toBe("0.07");
    expect(formatMoney("not money")).toBe("not money");
  });

  it("says times relative to now, and exactly in UTC for the hover", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(relativeTime("2026-11-23T11:57:00Z", now)).toBe("3 minutes ago");
    expect(relativeTime("2026-11-25T12:00:00Z", now)).toBe("in 2 days");
    expect(relativeTime("2026-11-22T12:00:00Z", now)).toBe("yesterday");
    expect(exactUtc("2026-11-23T11:57:00Z")).toBe("2026-11-23 11:57:00 UTC");
  });

  it("colours every status by what it means, one scheme across resources", () => {
    expect(["sent", "done", "active", "enabled"].map(statusTone)).toEqual(["success", "success", "success", "success"]);
    expect(["error", "rejected", "declined", "blocked"].map(statusTone)).toEqual(["danger", "danger", "danger", "danger"]);
    expect(statusTone("returned")).toBe("warning");
    expect(statusTone("something new")).toBe("neutral");
  });

  it("reads dotted paths and shortens ids for the eye only", () => {
    expect(valueAt({ a: { b: 1 } }, "a.b")).toBe(1);
    expect(valueAt({ a: null }, "a.b")).toBeUndefined();
    expect(shortId("ach_78523axhb2a15mho6ev0")).toBe("ach_7852…6ev0");
    expect(shortId("cp_short")).toBe("cp_short");
    expect(inSentence("ACH transfer")).toBe("ACH transfer");
    expect(inSentence("Instant payment")).toBe("instant payment");
  });
});
