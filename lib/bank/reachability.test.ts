import { describe, expect, it } from "vitest";
import { createBankReachability } from "./reachability";

describe("what the console has seen of each bank", () => {
  it("knows nothing of a bank it has not tried", () => {
    expect(createBankReachability().snapshot()).toEqual({});
  });

  it("keeps when the state changed apart from when the bank was last tried, per environment", () => {
    let now = Date.parse("2026-11-23T10:00:00Z");
    const reachability = createBankReachability(() => now);
    reachability.record("sandbox", true);
    now += 1_000;
    reachability.record("sandbox", true);
    reachability.record("production", false);
    expect(reachability.snapshot()).toEqual({
      sandbox: { state: "reachable", since: "2026-11-23T10:00:00.000Z", checkedAt: "2026-11-23T10:00:01.000Z" },
      production: { state: "unreachable", since: "2026-11-23T10:00:01.000Z", checkedAt: "2026-11-23T10:00:01.000Z" },
    });
    now += 1_000;
    reachability.record("sandbox", false);
    now += 1_000;
    reachability.record("sandbox", true);
    expect(reachability.snapshot().sandbox).toEqual({ state: "reachable", since: "2026-11-23T10:00:03.000Z", checkedAt: "2026-11-23T10:00:03.000Z" });
  });
});
