import { describe, expect, it } from "vitest";
import { parseIsoDuration } from "@/lib/contract/sandbox-control";
import { resetBody } from "@/sandbox/control/reset";
import { webhookBody } from "@/sandbox/control/transition";
import { ach, fednow, networkTransfer } from "@/sandbox/control/transition-roads";
import { advanceBodySchema, resetBodySchema, transitionBodySchema, transitionBodySchemas } from "./schemas";

// The console checks a body before sending it. A fault's body is the bank's own schema (lib/contract/sandbox-control.ts);
// the others are the console's own (the bank's sit in its route code): each must take what the bank takes and refuse what the bank refuses for the same reason, so the console never refuses a
// body the bank would take, nor sends one the bank refuses for what the console could have named.

const accepts = (schema: { safeParse(value: unknown): { success: boolean } }, body: unknown) => schema.safeParse(body).success;

describe("the console's sandbox control schemas, beside the bank's", () => {
  it.each([
    { seed: "demo" },
    { seed: "empty" },
    { seed: 0 },
    { seed: 1000000 },
    { seed: 1000001 },
    { seed: 1.5 },
    { seed: "big" },
    {},
    { seed: "demo", x: 1 },
  ])("reset %j: taken or refused as the bank does", (body) => {
    expect(accepts(resetBodySchema, body)).toBe(accepts(resetBody, body));
  });

  it.each([
    ["ach", ach.body, { to: "returned", error: "R01" }],
    ["ach", ach.body, { to: "lost" }],
    ["ach", ach.body, { to: "sent", colour: "red" }],
    ["network_transfer", networkTransfer.body, { to: "error", error: "Core down" }],
    ["network_transfer", networkTransfer.body, { to: "processing" }],
    ["fednow", fednow.body, { external_status: "rejected", external_reject_reason: "AM04" }],
    ["fednow", fednow.body, { to: "done" }],
    ["fednow", fednow.body, { to: "finished" }],
    ["webhook", webhookBody, { to: "error", error: "receiver is down" }],
    ["webhook", webhookBody, { to: "enabled" }],
  ] as const)("%s transition %j: taken or refused as the bank does", (resource, bankSchema, body) => {
    expect(accepts(transitionBodySchemas[resource], body)).toBe(accepts(bankSchema, body));
    if (accepts(bankSchema, body)) expect(accepts(transitionBodySchema, body)).toBe(true);
  });

  it.each(["PT1H", "P1D", "P1W", "P1DT12H", "PT0.5S", "1 day", "P1Y", "P", "PT", "P1DT", "-PT1H"])(
    "advance by %s: taken where the bank reads a duration",
    (by) => {
      expect(accepts(advanceBodySchema, { by })).toBe("ms" in parseIsoDuration(by));
    },
  );
});
