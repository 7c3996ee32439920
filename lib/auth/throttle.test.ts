import { describe, expect, it } from "vitest";
import { SignInThrottle } from "./throttle";

function throttleAt(start = 1_000_000) {
  const clock = { now: start };
  const throttle = new SignInThrottle({ freeFailures: 3, windowMs: 60_000, baseDelayMs: 1000, maxDelayMs: 8000 }, () => clock.now);
  return { throttle, clock };
}

describe("sign-in throttling", () => {
  it("lets a key fail a few times without waiting", () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 3; i++) {
      expect(throttle.waitFor("user:a")).toBe(0);
      throttle.recordFailure("user:a");
    }
  });

  it("then makes each further attempt wait twice as long as the one before, up to the maximum", () => {
    const { throttle, clock } = throttleAt();
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      clock.now += throttle.waitFor("user:a");
      throttle.recordFailure("user:a");
      waits.push(throttle.waitFor("user:a"));
    }
    expect(waits).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000]);
  });

  it("counts down the wait as time passes", () => {
    const { throttle, clock } = throttleAt();
    for (let i = 0; i < 4; i++) throttle.recordFailure("ip:1");
    expect(throttle.waitFor("ip:1")).toBe(2000);
    clock.now += 1500;
    expect(throttle.waitFor("ip:1")).toBe(500);
  });

  it("keeps keys apart", () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 5; i++) throttle.recordFailure("user:a");
    expect(throttle.waitFor("user:b")).toBe(0);
  });

  it("forgets failures after a success or once the window has passed", () => {
    const { throttle, clock } = throttleAt();
    for (let i = 0; i < 5; i++) throttle.recordFailure("user:a");
    throttle.recordSuccess("user:a");
    expect(throttle.waitFor("user:a")).toBe(0);
    for (let i = 0; i < 5; i++) throttle.recordFailure("user:b");
    clock.now += 60_001;
    expect(throttle.waitFor("user:b")).toBe(0);
  });
});
