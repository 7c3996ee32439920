import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  achOutcome,
  fednowOutcome,
  forcedFulfillmentStatus,
  magicCents,
  magicValueRows,
  networkTransferOutcome,
  provisioningFulfillmentStatus,
} from "./magic";

describe("magic values", () => {
  it("returns an ACH transfer with a return code in error when its amount ends in .13", () => {
    expect(achOutcome({ amount: "120.13" })).toEqual({ status: "returned", error: "R01 Insufficient Funds" });
    expect(achOutcome({ amount: "7.14" })).toMatchObject({ status: "returned", error: expect.stringMatching(/^R02 /) });
  });

  it("ends an ACH transfer in error at .66 and canceled at .77, and sends every other amount", () => {
    expect(achOutcome({ amount: "5.66" }).status).toBe("error");
    expect(achOutcome({ amount: "5.77" }).status).toBe("canceled");
    expect(achOutcome({ amount: "1313.00" })).toEqual({ status: "sent" });
  });

  it("fails a network transfer whose description contains FAIL, with a message", () => {
    expect(networkTransferOutcome({ amount: "10.00", description: "payroll FAIL test" })).toMatchObject({
      status: "error",
      error: expect.stringContaining("FAIL"),
    });
    expect(networkTransferOutcome({ amount: "10.00", description: "failure is lower case" })).toEqual({ status: "sent" });
    expect(networkTransferOutcome({ amount: "10.13", description: null })).toMatchObject({ status: "error" });
    expect(networkTransferOutcome({ amount: "10.77", description: null })).toEqual({ status: "canceled" });
  });

  it("rejects an outgoing instant payment at .13 with a reject reason, but not an incoming one", () => {
    expect(fednowOutcome({ amount: "99.13", payment_type: "debit" })).toEqual({
      status: "settled",
      externalStatus: "rejected",
      externalRejectReason: { code: "AC04", message: "Closed account number" },
    });
    expect(fednowOutcome({ amount: "99.13", payment_type: "credit" })).toMatchObject({ status: "settled", externalStatus: "done" });
    expect(fednowOutcome({ amount: "99.66", payment_type: "credit" })).toMatchObject({ status: "error" });
  });

  it("forces a provisioning outcome by card id suffix unless the request names one", () => {
    expect(forcedFulfillmentStatus("card_8f2a_red")).toBe("decision_red");
    expect(forcedFulfillmentStatus("card_8f2a")).toBeUndefined();
    expect(provisioningFulfillmentStatus("card_8f2a_yellow")).toBe("decision_yellow");
    expect(provisioningFulfillmentStatus("card_8f2a_yellow", "provisioned")).toBe("provisioned");
    expect(provisioningFulfillmentStatus("card_8f2a")).toBe("provisioned");
  });

  it("lists every magic amount's cents among the cents the seed avoids", () => {
    for (const row of magicValueRows()) {
      const cents = /\.(\d\d)$/.exec(row.trigger)?.[1];
      if (cents) expect(magicCents.has(cents)).toBe(true);
    }
  });

  it("documents every rule in docs/sandbox-data.md", () => {
    const docs = readFileSync(path.resolve(import.meta.dirname, "../../docs/sandbox-data.md"), "utf8");
    for (const row of magicValueRows()) {
      expect(docs).toContain(`| ${row.resource} | ${row.trigger} | ${row.outcome} |`);
    }
  });
});
