import { describe, expect, it } from "vitest";
import { parseIsoDuration } from "@/sandbox/control/duration";
import { faultBody } from "@/sandbox/control/faults";
import { resetBody } from "@/sandbox/control/reset";
import { webhookBody } from "@/sandbox/control/transition";
import { ach, fednow, networkTransfer } from "@/sandbox/control/transition-roads";
import { advanceBodySchema, faultBodySchema, resetBodySchema, transitionBodySchema, transitionBodySchemas } from "./schemas";

// The console checks a body before sending it, with schemas of its own (it may not import the sandbox's code): each
// must take what the bank takes and refuse what the bank refuses for the same reason, so the console never refuses a
// body the bank would take, nor sends one the bank refuses for what the console could have named.

const accepts = (schema: { safeParse(value: unknown): { success: boolean } }, body: unknown) => schema.safeParse(body).success;

describe("the console's sandbox control schemas, beside the bank's", () => {
  it.each([
    { match: "GET /ach", status: 503, retry_after: 30 },
    { match: "*", latency_ms: 200, share: 0.5, seed: "run-1" },
    { match: "PATCH /network_transfer/*", drop: true, times: 3, expires_in: "PT10M" },
    { webhooks: "delay", delay_ms: 5000 },
    { webhooks: "drop", expires_in: "P1D" },
    { webhooks: "duplicate", share: 1 },
    {},
    { match: "GET /ach", webhooks: "drop" },
    { match: "GET /ach" },
    { match: "GET /sandbox/faults", status: 503 },
    { match: "FETCH /ach", status: 503 },
    { match: "GET /ach", status: 404 },
    { match: "GET /ach", status: 503, drop: true },
    { match: "GET /ach", latency_ms: 5, retry_after: 3 },
    { webhooks: "delay" },
    { webhooks: "drop", delay_ms: 3 },
    { webhooks: "drop", status: 503 },
    { match: "GET /ach", status: 503, share: 2 },
    { match: "GET /ach", status: 503, expires_in: "1 day" },
    { match: "GET /ach", status: 503, expires_in: "P1M" },
    { match: "GET /ach", status: 503, times: 0 },
    { match: "GET /ach", status: 503, colour: "red" },
  ])("fault %j: taken or refused as the bank does", (body) => {
    expect(accepts(faultBodySchema, body)).toBe(accepts(faultBody, body));
  });

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
