import { describe, expect, it } from "vitest";
import { nextAchState, nextFednowState, nextNetworkTransferState } from "./transitions";

const now = new Date("2025-11-21T15:00:00Z");

describe("ACH transitions", () => {
  it("goes pending -> processing -> sent and stops there", () => {
    expect(nextAchState({ status: "pending", amount: "10.00" })).toEqual({ status: "processing", error: null });
    expect(nextAchState({ status: "processing", amount: "10.00" })).toEqual({ status: "sent", error: null });
    expect(nextAchState({ status: "sent", amount: "10.00" })).toBeUndefined();
  });

  it("returns a .13 transfer at the step that would have sent it, with its return code", () => {
    expect(nextAchState({ status: "pending", amount: "10.13" })).toEqual({ status: "processing", error: null });
    expect(nextAchState({ status: "processing", amount: "10.13" })).toEqual({ status: "returned", error: "R01 Insufficient Funds" });
  });

  it("cancels (.77) or fails (.66) a transfer while it is still pending", () => {
    expect(nextAchState({ status: "pending", amount: "10.77" })).toEqual({ status: "canceled", error: null });
    expect(nextAchState({ status: "pending", amount: "10.66" })).toMatchObject({ status: "error", error: expect.any(String) });
  });
});

describe("network transfer transitions", () => {
  const transfer = { amount: "10.00", description: null, version: "v2", cross_bank: true, balanced_at: null };

  it("sends a cross-bank v2 transfer first and sends its balancing wire one step later", () => {
    expect(nextNetworkTransferState({ ...transfer, status: "pending" }, now)).toEqual({ status: "sent", error: null, balanced_at: null });
    expect(nextNetworkTransferState({ ...transfer, status: "sent" }, now)).toEqual({ status: "sent", error: null, balanced_at: now });
    expect(nextNetworkTransferState({ ...transfer, status: "sent", balanced_at: now }, now)).toBeUndefined();
  });

  it("never balances a v1 or same-bank transfer", () => {
    expect(nextNetworkTransferState({ ...transfer, status: "sent", version: "v1" }, now)).toBeUndefined();
    expect(nextNetworkTransferState({ ...transfer, status: "sent", cross_bank: false }, now)).toBeUndefined();
  });

  it("ends a transfer described with FAIL in error with a message", () => {
    expect(nextNetworkTransferState({ ...transfer, status: "pending", description: "FAIL please" }, now)).toMatchObject({
      status: "error",
      error: expect.stringContaining("FAIL"),
      balanced_at: null,
    });
  });
});

describe("instant payment transitions", () => {
  it("ends a credit done and a debit sent with external_status pending, then moves external_status to its end", () => {
    expect(nextFednowState({ status: "pending", amount: "5.00", payment_type: "credit", external_status: null })).toMatchObject({
      status: "processing",
    });
    expect(nextFednowState({ status: "processing", amount: "5.00", payment_type: "credit", external_status: null })).toMatchObject({
      status: "done",
      external_status: null,
    });
    expect(nextFednowState({ status: "processing", amount: "5.00", payment_type: "debit", external_status: null })).toMatchObject({
      status: "sent",
      external_status: "pending",
    });
    expect(nextFednowState({ status: "sent", amount: "5.00", payment_type: "debit", external_status: "pending" })).toMatchObject({
      external_status: "processing",
    });
    expect(nextFednowState({ status: "sent", amount: "5.00", payment_type: "debit", external_status: "processing" })).toMatchObject({
      external_status: "done",
      external_reject_reason: null,
    });
    expect(nextFednowState({ status: "sent", amount: "5.00", payment_type: "debit", external_status: "done" })).toBeUndefined();
  });

  it("rejects a .14 debit at the external bank with its reason, and fails a .66 payment before it is sent", () => {
    expect(nextFednowState({ status: "sent", amount: "5.14", payment_type: "debit", external_status: "processing" })).toEqual({
      status: "sent",
      error: null,
      external_status: "rejected",
      external_reject_reason: { code: "AM04", message: "Insufficient funds" },
    });
    expect(nextFednowState({ status: "processing", amount: "5.66", payment_type: "debit", external_status: null })).toMatchObject({
      status: "error",
      error: expect.stringContaining("FedNow"),
    });
  });
});
