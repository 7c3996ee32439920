import { describe, expect, it } from "vitest";
import { transitionBodySchemas } from "@/lib/sandbox-control/schemas";
import { initialDetail, transitionBody, transitionChoices, transitionEffect, transitionQuestion } from "./transition-options";

describe("the Simulate menu", () => {
  it("offers exactly the transitions the sandbox lists as valid, a pending ACH's returned with a return code and its error with a message", () => {
    const choices = transitionChoices("ach", { status: "pending", valid: ["processing", "sent", "returned", "canceled", "error"] });
    expect(choices.map((choice) => [choice.label, choice.detail])).toEqual([
      ["→ processing", undefined],
      ["→ sent", undefined],
      ["→ returned", "return_code"],
      ["→ canceled", undefined],
      ["→ error", "message"],
    ]);
  });

  it("offers nothing from a final state", () => {
    expect(transitionChoices("ach", { status: "returned", valid: [] })).toEqual([]);
  });

  it("sends ACH returned with R01 unless another code is picked, and leaves an empty message to the bank", () => {
    const [returned, error] = transitionChoices("ach", { status: "processing", valid: ["returned", "error"] });
    expect(initialDetail(returned!)).toBe("R01");
    expect(transitionBody(returned!, initialDetail(returned!))).toEqual({ to: "returned", error: "R01" });
    expect(transitionBody(returned!, "R03")).toEqual({ to: "returned", error: "R03" });
    expect(transitionBody(error!, "  ")).toEqual({ to: "error" });
    expect(transitionBody(error!, "Operator rejected the file")).toEqual({ to: "error", error: "Operator rejected the file" });
  });

  it("moves a sent instant payment by its external status, rejected with AC04 unless another reason is picked", () => {
    const choices = transitionChoices("fednow", {
      status: "sent (external_status pending)",
      valid: [],
      valid_external_status: ["processing", "done", "rejected", "blocked", "error"],
    });
    expect(choices.map((choice) => choice.label)).toEqual([
      "External status → processing",
      "External status → done",
      "External status → rejected",
      "External status → blocked",
      "External status → error",
    ]);
    const rejected = choices[2]!;
    expect(transitionBody(rejected, initialDetail(rejected))).toEqual({ external_status: "rejected", external_reject_reason: "AC04" });
    expect(transitionBody(choices[4]!, "")).toEqual({ external_status: "error" });
  });

  it("builds only bodies the console's route accepts for the resource", () => {
    const bodies = [
      ["ach", transitionChoices("ach", { status: "processing", valid: ["sent", "returned", "error"] })],
      ["network_transfer", transitionChoices("network_transfer", { status: "pending", valid: ["sent", "error", "canceled"] })],
      [
        "fednow",
        transitionChoices("fednow", { status: "pending", valid: ["processing", "done", "sent", "error"], valid_external_status: ["rejected"] }),
      ],
      ["webhook", transitionChoices("webhook", { status: "enabled", valid: ["error", "disabled"] })],
    ] as const;
    for (const [resource, choices] of bodies) {
      for (const choice of choices) {
        const body = transitionBody(choice, choice.detail === "message" ? "a message" : initialDetail(choice));
        expect(transitionBodySchemas[resource].safeParse(body).success, `${resource} ${JSON.stringify(body)}`).toBe(true);
      }
    }
  });

  it("asks in words naming the object, its state and the target with its code, and says the lifecycle's events follow", () => {
    const [returned] = transitionChoices("ach", { status: "pending", valid: ["returned"] });
    expect(transitionQuestion("ach", "ach_1", "pending", returned!, "R01")).toBe(
      "Move ACH transfer ach_1 from pending to returned (R01 Insufficient Funds) now?",
    );
    expect(transitionEffect("ach", returned!)).toContain("fires the events its lifecycle would");
    const [rejected] = transitionChoices("fednow", { status: "sent (external_status pending)", valid: [], valid_external_status: ["rejected"] });
    expect(transitionQuestion("fednow", "fednow_1", "sent (external_status pending)", rejected!, "AM04")).toBe(
      "Move the external status of instant payment fednow_1 from sent (external_status pending) to rejected (AM04 Insufficient funds) now?",
    );
    const [error] = transitionChoices("webhook", { status: "enabled", valid: ["error"] });
    expect(transitionQuestion("webhook", "webhook_1", "enabled", error!, "")).toBe("Move webhook webhook_1 from enabled to error now?");
    expect(transitionEffect("webhook", error!)).toContain("pending deliveries are paused");
  });
});
