import { describe, expect, it } from "vitest";
import { faultBodySchema } from "@/lib/sandbox-control/schemas";
import { blankFault, faultBody } from "./fault-draft";
import { faultWords } from "./fault-words";
import type { SandboxFault } from "./sandbox-api";

const stored: SandboxFault = {
  id: "flt_1",
  match: "GET /ach",
  webhooks: null,
  status: 503,
  retry_after: 30,
  latency_ms: null,
  drop: false,
  delay_ms: null,
  share: 1,
  seed: "flt_1",
  times: null,
  expires_at: null,
  created_at: "2026-11-28T18:00:00.000Z",
};

describe("the Add a failure form", () => {
  it("sends only the fields filled in, as numbers", () => {
    expect(faultBody(blankFault)).toEqual({ match: "GET /ach", status: 503 });
    expect(faultBody({ ...blankFault, retryAfter: "30", times: "3", expiresIn: " PT10M " })).toEqual({
      match: "GET /ach",
      status: 503,
      retry_after: 30,
      times: 3,
      expires_in: "PT10M",
    });
    expect(faultBody({ ...blankFault, status: "", retryAfter: "30", latencyMs: "200", drop: true })).toEqual({
      match: "GET /ach",
      latency_ms: 200,
      drop: true,
    });
  });

  it("sends a webhook fault without the HTTP fields, delay_ms only for delay", () => {
    expect(faultBody({ ...blankFault, kind: "webhooks", webhooks: "delay", delayMs: "5000", share: "0.5" })).toEqual({
      webhooks: "delay",
      delay_ms: 5000,
      share: 0.5,
    });
    expect(faultBody({ ...blankFault, kind: "webhooks", webhooks: "duplicate" })).toEqual({ webhooks: "duplicate" });
  });

  it("is checked with the console route's schema before it is sent: the bank's rules, named", () => {
    expect(faultBodySchema.safeParse(faultBody(blankFault)).success).toBe(true);
    const problems = (body: Record<string, unknown>) => {
      const parsed = faultBodySchema.safeParse(body);
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    };
    expect(problems(faultBody({ ...blankFault, status: "" }))).toEqual(["status, latency_ms or drop is required with match"]);
    expect(problems(faultBody({ ...blankFault, match: "GET /sandbox/clock" }))).toEqual([
      "match: /sandbox/..., /health and /openapi.json are never faulted",
    ]);
    expect(problems(faultBody({ ...blankFault, expiresIn: "1 day" }))[0]).toContain("expires_in");
  });
});

describe("a failure in the list", () => {
  it("says what it matches and what it does", () => {
    expect(faultWords(stored)).toEqual({ what: "GET /ach", how: "answers 503 with Retry-After 30 s; every one" });
    expect(faultWords({ ...stored, match: "*", status: null, retry_after: null, latency_ms: 200, drop: true, share: 0.25, seed: "run-1" })).toEqual({
      what: "Every API request (*)",
      how: "200 ms late, drops the connection; 25% of them (seed run-1)",
    });
    expect(faultWords({ ...stored, match: null, webhooks: "delay", status: null, retry_after: null, delay_ms: 5000 })).toEqual({
      what: "Webhook deliveries",
      how: "delayed by 5000 ms; every one",
    });
  });
});
