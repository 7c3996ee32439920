import { describe, expect, it } from "vitest";
import { ownershipFlags } from "./beneficial-owners";

describe("beneficial-owner review flags", () => {
  const owner = (ownership_percentage: number, roles: string[]) => ({
    id: `apsn_${ownership_percentage}`,
    ownership_percentage,
    roles,
    title: "Owner",
  });

  it("flag ownership over 100% and a missing controlling person", () => {
    expect(ownershipFlags([owner(60, ["signer"]), owner(50, ["signer"])])).toEqual([
      "Ownership adds up to 110%, more than 100%.",
      "No controlling person (role control_person) is listed.",
    ]);
  });

  it("accept exactly 100% in decimals with a controlling person", () => {
    expect(ownershipFlags([owner(33.33, ["control_person"]), owner(33.33, []), owner(33.34, [])])).toEqual([]);
  });
});
