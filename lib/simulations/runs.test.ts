import { describe, expect, it } from "vitest";
import { thirdTokenRequestor, tokenRequestors } from "@/lib/contract/resources";
import { runOfToken, tokensOfRuns } from "./runs";
import { walletProviderName, walletProviders } from "./wallet-providers";

const run = (id: number, at: string, targetId = "card_1", outcome = "succeeded") => ({ id, at, targetId, outcome });
const token = (id: string, created_at: string, card_id = "card_1") => ({ id, card_id, created_at });

describe("which run made a token", () => {
  it("is the latest successful run on the token's card up to a minute before it, or a second after", () => {
    const runs = [
      run(1, "2026-11-20T10:00:00Z"),
      run(2, "2026-11-20T10:00:30Z"),
      run(3, "2026-11-20T10:00:40Z", "card_2"),
      run(4, "2026-11-20T10:00:45Z", "card_1", "failed"),
    ];
    expect(runOfToken(token("dwt_a", "2026-11-20T10:00:50Z"), runs)?.id).toBe(2);
    expect(runOfToken(token("dwt_b", "2026-11-20T10:00:29Z"), runs)?.id).toBe(2);
    expect(runOfToken(token("dwt_c", "2026-11-20T10:00:28Z"), runs)?.id).toBe(1);
    expect(runOfToken(token("dwt_d", "2026-11-20T10:01:31Z"), runs)).toBeNull();
    expect(runOfToken(token("dwt_e", "2026-11-20T09:59:58Z"), runs)).toBeNull();
    expect(runOfToken(token("dwt_f", "2026-11-20T10:00:41Z", "card_2"), runs)?.id).toBe(3);
    expect(runOfToken(token("dwt_g", "2026-11-20T10:00:41Z", "card_3"), runs)).toBeNull();
  });

  it("gives each run the first token made after it, and a token made by no run to none", () => {
    const runs = [run(1, "2026-11-20T10:00:00Z"), run(2, "2026-11-20T10:05:00Z")];
    const tokens = [
      token("dwt_late", "2026-11-20T10:05:02Z"),
      token("dwt_first", "2026-11-20T10:00:01Z"),
      token("dwt_second", "2026-11-20T10:00:03Z"),
      token("dwt_seed", "2026-11-19T08:00:00Z"),
    ];
    const byRun = tokensOfRuns(runs, tokens);
    expect([...byRun.entries()].map(([id, found]) => [id, found.id])).toEqual([
      [1, "dwt_first"],
      [2, "dwt_late"],
    ]);
  });
});

describe("wallet provider names", () => {
  it("names the providers the contract knows, with the contract's requestor ids", () => {
    expect(walletProviders.APPLE_PAY.requestorId).toBe(tokenRequestors.APPLE_PAY);
    expect(walletProviders.GOOGLE_PAY.requestorId).toBe(tokenRequestors.GOOGLE_PAY);
    expect(walletProviders[thirdTokenRequestor.name].requestorId).toBe(thirdTokenRequestor.id);
    expect(walletProviderName("GOOGLE_PAY")).toBe("Google Pay");
    expect(walletProviderName("APPLE_PAY")).toBe("Apple Pay");
    expect(walletProviderName("SAMSUNG_PAY")).toBe("Samsung Pay");
    expect(walletProviderName("NEW_WALLET")).toBe("NEW_WALLET");
  });
});
