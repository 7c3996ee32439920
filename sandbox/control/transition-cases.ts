import { expect } from "vitest";
import { achRules, fednowRules } from "@/sandbox/lifecycle/magic";
import type { TestDatabaseTarget } from "@/tests/support/databases";
import { sandboxWithReceiver } from "@/tests/support/sandbox-with-receiver";

// What the transition tests share (transition*.test.ts): the transitions asked of fresh objects with what each must
// give, and a sandbox bank with a webhook receiver to move objects on.

export type Body = Record<string, unknown> & { id: string; status: string; updated_at: string };
/** A transition asked of a fresh object: `path` moves it first (each step a transition), then `to` is asked. */
type Case = {
  fields?: Record<string, unknown>;
  path?: Array<Record<string, unknown>>;
  ask: Record<string, unknown>;
  updates: number;
  expected: Record<string, unknown>;
};

const magicError = (rules: ReadonlyArray<{ outcome: { status: string; error?: string } }>) =>
  rules.map((rule) => rule.outcome).find((outcome) => outcome.status === "error")!.error;

const achCases: Record<string, Case> = {
  "pending → processing": { ask: { to: "processing" }, updates: 1, expected: { status: "processing", error: null } },
  "pending → sent, through processing": { ask: { to: "sent" }, updates: 2, expected: { status: "sent", error: null } },
  "pending → returned R02, through processing": {
    ask: { to: "returned", error: "R02" },
    updates: 2,
    expected: { status: "returned", error: "R02 Account Closed" },
  },
  "pending → canceled": { ask: { to: "canceled" }, updates: 1, expected: { status: "canceled", error: null } },
  "pending → error with a message": { ask: { to: "error", error: "Bank said no" }, updates: 1, expected: { status: "error", error: "Bank said no" } },
  "processing → sent": { path: [{ to: "processing" }], ask: { to: "sent" }, updates: 1, expected: { status: "sent" } },
  "processing → returned, R01 by default": {
    path: [{ to: "processing" }],
    ask: { to: "returned" },
    updates: 1,
    expected: { status: "returned", error: "R01 Insufficient Funds" },
  },
  "processing → error, the operator's message by default": {
    path: [{ to: "processing" }],
    ask: { to: "error" },
    updates: 1,
    expected: { status: "error", error: magicError(achRules) },
  },
};

const networkTransferCases: Record<string, Case> = {
  "pending → sent": { fields: { version: "v1" }, ask: { to: "sent" }, updates: 1, expected: { status: "sent", error: null, balanced_at: null } },
  "pending → error with a message": { ask: { to: "error", error: "Core down" }, updates: 1, expected: { status: "error", error: "Core down" } },
  "pending → error, the magic message by default": {
    ask: { to: "error" },
    updates: 1,
    expected: { status: "error", error: "Insufficient funds in the originating account" },
  },
  "pending → canceled": { ask: { to: "canceled" }, updates: 1, expected: { status: "canceled", error: null } },
  "v2 cross-bank pending → sent, its balancing wire left for later": {
    fields: { version: "v2", cross_bank: true },
    ask: { to: "sent" },
    updates: 1,
    expected: { status: "sent", balanced_at: null },
  },
  "v2 cross-bank sent → sent: its balancing wire goes out": {
    fields: { version: "v2", cross_bank: true },
    path: [{ to: "sent" }],
    ask: { to: "sent" },
    updates: 1,
    expected: { status: "sent" },
  },
};

export const debit = { payment_type: "debit" };
const fednowCases: Record<string, Case> = {
  "pending → processing": { ask: { to: "processing" }, updates: 1, expected: { status: "processing", external_status: null } },
  "credit pending → done, through processing": { ask: { to: "done" }, updates: 2, expected: { status: "done", external_status: null } },
  "pending → error with a message, through processing": {
    ask: { to: "error", error: "Timeout" },
    updates: 2,
    expected: { status: "error", error: "Timeout" },
  },
  "processing → error, the magic message by default": {
    path: [{ to: "processing" }],
    ask: { to: "error" },
    updates: 1,
    expected: { status: "error", error: magicError(fednowRules) },
  },
  "debit pending → sent: external_status pending": {
    fields: debit,
    ask: { to: "sent" },
    updates: 2,
    expected: { status: "sent", external_status: "pending" },
  },
  "debit pending → external done, all four steps": {
    fields: debit,
    ask: { external_status: "done" },
    updates: 4,
    expected: { status: "sent", external_status: "done" },
  },
  "debit pending → external rejected AM04": {
    fields: debit,
    ask: { to: "sent", external_status: "rejected", external_reject_reason: "AM04" },
    updates: 4,
    expected: { status: "sent", external_status: "rejected", external_reject_reason: { code: "AM04", message: "Insufficient funds" } },
  },
  "sent → external processing": {
    fields: debit,
    path: [{ to: "sent" }],
    ask: { external_status: "processing" },
    updates: 1,
    expected: { external_status: "processing" },
  },
  "sent → external rejected, AC04 by default": {
    fields: debit,
    path: [{ to: "sent" }],
    ask: { external_status: "rejected" },
    updates: 2,
    expected: { external_status: "rejected", external_reject_reason: { code: "AC04", message: "Closed account number" } },
  },
  "sent → external blocked": {
    fields: debit,
    path: [{ to: "sent" }],
    ask: { external_status: "blocked" },
    updates: 2,
    expected: { external_status: "blocked", external_reject_reason: null },
  },
  "external processing → external error": {
    fields: debit,
    path: [{ external_status: "processing" }],
    ask: { external_status: "error" },
    updates: 1,
    expected: { status: "sent", external_status: "error" },
  },
};

/** A transition not valid from where the object stands, and the valid ones the 409 must list. */
type Refusal = {
  fields?: Record<string, unknown>;
  path?: Array<Record<string, unknown>>;
  ask: Record<string, unknown>;
  valid: Record<string, string[]>;
};

export const refusals: Record<"ach" | "network_transfer" | "fednow", Record<string, Refusal>> = {
  ach: {
    "pending → pending": { ask: { to: "pending" }, valid: { valid: ["processing", "sent", "returned", "canceled", "error"] } },
    "processing → canceled": { path: [{ to: "processing" }], ask: { to: "canceled" }, valid: { valid: ["sent", "returned", "error"] } },
    "sent → returned": { path: [{ to: "sent" }], ask: { to: "returned" }, valid: { valid: [] } },
    "returned → sent": { path: [{ to: "returned" }], ask: { to: "sent" }, valid: { valid: [] } },
  },
  network_transfer: {
    "pending → pending": { ask: { to: "pending" }, valid: { valid: ["canceled", "sent", "error"] } },
    "v1 sent → error": { fields: { version: "v1" }, path: [{ to: "sent" }], ask: { to: "error" }, valid: { valid: [] } },
    "balanced sent → sent": {
      fields: { version: "v2", cross_bank: true },
      path: [{ to: "sent" }, { to: "sent" }],
      ask: { to: "sent" },
      valid: { valid: [] },
    },
    "canceled → sent": { path: [{ to: "canceled" }], ask: { to: "sent" }, valid: { valid: [] } },
    "v2 cross-bank sent, not yet balanced → canceled": {
      fields: { version: "v2", cross_bank: true },
      path: [{ to: "sent" }],
      ask: { to: "canceled" },
      valid: { valid: ["sent"] },
    },
  },
  fednow: {
    "credit pending → sent": { ask: { to: "sent" }, valid: { valid: ["processing", "done", "error"], valid_external_status: [] } },
    "debit pending → done": {
      fields: debit,
      ask: { to: "done" },
      valid: { valid: ["processing", "sent", "error"], valid_external_status: ["pending", "processing", "done", "rejected", "blocked", "error"] },
    },
    "sent → error": {
      fields: debit,
      path: [{ to: "sent" }],
      ask: { to: "error" },
      valid: { valid: [], valid_external_status: ["processing", "done", "rejected", "blocked", "error"] },
    },
    "external done → external rejected": {
      fields: debit,
      path: [{ external_status: "done" }],
      ask: { external_status: "rejected" },
      valid: { valid: [], valid_external_status: [] },
    },
  },
};

export const cases = { ach: achCases, network_transfer: networkTransferCases, fednow: fednowCases };

/** A sandbox bank with a receiver of every create and update, and the way to move its objects, set up in the calling `describe`. */
export function transitionBank(target: TestDatabaseTarget) {
  const bank = sandboxWithReceiver(
    target,
    ["ach", "network_transfer", "fednow", "counterparty", "webhook"].flatMap((resource) => [`${resource}.create`, `${resource}.update`]),
  );
  const transition = (resource: string, id: string, json: unknown) => bank.request(`/sandbox/${resource}/${id}/transition`, { method: "POST", json });

  /** A new object of `resource` moved along `path`, each step answered 200. */
  async function objectAt(resource: keyof typeof cases, fields: Record<string, unknown> = {}, path: Array<Record<string, unknown>> = []) {
    if (resource === "ach") expect((await bank.request("/sandbox/counterparty", { method: "POST", json: {} })).status).toBe(201);
    const created = await bank.request(`/sandbox/${resource}`, { method: "POST", json: fields });
    expect(created.status).toBe(201);
    const id = (created.body as Body).id;
    for (const step of path) expect((await transition(resource, id, step)).status).toBe(200);
    return id;
  }
  return { bank, transition, objectAt };
}
