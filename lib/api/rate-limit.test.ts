import { afterEach, describe, expect, it } from "vitest";
import { consumeRateLimit, rateLimitRules, resetRateLimits } from "./rate-limit";

const spend = async (name: "search" | "searchPreview", key: string, times: number) => {
  const outcomes = [];
  for (let call = 0; call < times; call++) outcomes.push(await consumeRateLimit(name, key));
  return outcomes;
};

describe("the search box's allowances", () => {
  afterEach(() => resetRateLimits());

  it("lets a person type ten names of 15 letters in a minute: a preview per letter and one recorded search each", async () => {
    const previews = await spend("searchPreview", "stf_typist", 10 * 15);
    const searches = await spend("search", "stf_typist", 10);
    expect([...previews, ...searches].every((outcome) => outcome.allowed)).toBe(true);
  });

  it("keeps the previews' count apart: a spent preview allowance leaves the recorded searches untouched, and says when to retry", async () => {
    await spend("searchPreview", "stf_fast", rateLimitRules.searchPreview.points);
    const refused = await consumeRateLimit("searchPreview", "stf_fast");
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await consumeRateLimit("search", "stf_fast")).toEqual({ allowed: true });
  });
});
