import { describe, expect, it } from "vitest";
import { sessionWithinMaxAge } from "./session-age";

describe("the absolute session lifetime", () => {
  const signedInAtMs = 1_700_000_000_123;
  const hour = 3_600_000;

  it("keeps a session up to the maximum age after sign-in", () => {
    expect(sessionWithinMaxAge(signedInAtMs, signedInAtMs + 8 * hour, 8)).toBe(true);
  });

  it("ends it after that, however recently it was used", () => {
    expect(sessionWithinMaxAge(signedInAtMs, signedInAtMs + 8 * hour + 1, 8)).toBe(false);
    expect(sessionWithinMaxAge(signedInAtMs, signedInAtMs + 31 * 60_000, 0.5)).toBe(false);
  });
});
