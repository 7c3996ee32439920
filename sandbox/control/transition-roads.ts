import { and, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { achStatuses, fednowExternalStatuses, fednowStatuses, networkTransferStatuses } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { achTransfers, fednowPayments, networkTransfers } from "../db/resources-schema";
import { badRequest } from "../http/errors";
import { networkTransferStepColumns, networkTransferStepGuard } from "../lifecycle/engine";
import { achRules, fednowRules, networkTransferRules, type AchOutcome, type FednowOutcome, type NetworkTransferOutcome } from "../lifecycle/magic";
import { nextAchState, nextFednowState, nextNetworkTransferState, type FednowState, type NetworkTransferState } from "../lifecycle/transitions";
import { achReturnCodes, achReturnError, defaultRejectReason, defaultReturnCode, fednowRejectReasons } from "@/lib/contract/sandbox-reason-codes";

/**
 * The roads of transfers and payments to a state asked for: the lifecycle's own steps (sandbox/lifecycle/transitions.ts)
 * taken one after the other towards the outcome the test names (a return code, a message, an external status), each
 * step what the lifecycle would write. sandbox/control/transition.ts writes them.
 */

const statusOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });
export const message = z.string().min(1, "error must not be empty").max(500, "error must be at most 500 characters");

const outcomeOf = <O extends { status: string }>(rules: ReadonlyArray<{ outcome: O }>, status: string) =>
  rules.map((rule) => rule.outcome).find((outcome) => outcome.status === status) as O;
/** What a failure says when the test names no message: the message the lifecycle's magic values give. */
const defaultErrors = {
  ach: (outcomeOf(achRules, "error") as { error: string }).error,
  network_transfer: (networkTransferRules.find((rule) => rule.cents && rule.outcome.status === "error")!.outcome as { error: string }).error,
  fednow: (outcomeOf(fednowRules, "error") as { error: string }).error,
};

/** A state a test may ask for, and the outcome the lifecycle's steps head for on the way to it. */
export interface Target<Outcome> {
  /** The list of valid targets it belongs to in a 409 (`valid`, or `valid_external_status` for instant payments). */
  list: "valid" | "valid_external_status";
  label: string;
  outcome: Outcome;
}

/** A resource whose objects move through the lifecycle's steps. */
export interface Movable<Row extends { id: string }, T extends Target<unknown>> {
  resource: "ach" | "network_transfer" | "fednow";
  table: typeof achTransfers | typeof networkTransfers | typeof fednowPayments;
  body: z.ZodType;
  /** The target a valid body asks for; a detail that does not fit it is a 400. */
  target(body: never): T;
  /** Every target with its default details, for the lists of valid ones. */
  targets: T[];
  read(ctx: SandboxContext, id: string): Promise<Row | undefined>;
  describe(row: Row): string;
  /** The lifecycle's next step from `row` towards the target's outcome; undefined where that road ends. */
  step(row: Row, outcome: T["outcome"], now: Date): Partial<Row> | undefined;
  reached(row: Row, target: T): boolean;
  /** The engine's guard: a step applies only to a row still in the state it was read in. */
  guard(row: Row): SQL | undefined;
}

/** The steps from `row` to `target`, or undefined when the lifecycle cannot get there (or it is there already). */
export function road<Row extends { id: string }, T extends Target<unknown>>(machine: Movable<Row, T>, row: Row, target: T, now: Date) {
  const steps: Array<{ from: Row; set: Partial<Row> }> = [];
  let current = row;
  // The longest road of the lifecycle, an outgoing instant payment's, has four steps.
  while (steps.length < 4) {
    const set = machine.step(current, target.outcome, now);
    if (!set) return undefined;
    steps.push({ from: current, set });
    current = { ...current, ...set };
    if (machine.reached(current, target)) return steps;
  }
  return undefined;
}

/** The targets reachable from `row`, by list (`valid`, and for instant payments `valid_external_status`). */
export function validTargets<Row extends { id: string }, T extends Target<unknown>>(machine: Movable<Row, T>, row: Row, now: Date) {
  const lists: Record<string, string[]> = {};
  for (const target of machine.targets) {
    lists[target.list] ??= [];
    if (road(machine, row, target, now)) lists[target.list]!.push(target.label);
  }
  return lists;
}

type AchRow = { id: string; status: string; amount: string };
type AchTarget = Target<AchOutcome> & { to: string };
const achTarget = (to: string, error?: string): AchTarget => {
  const outcome: AchOutcome =
    to === "returned"
      ? { status: "returned", error: achReturnError(error ?? defaultReturnCode) }
      : to === "error"
        ? { status: "error", error: error ?? defaultErrors.ach }
        : to === "canceled"
          ? { status: "canceled" }
          : { status: "sent" };
  return { list: "valid", label: to, to, outcome };
};

export const ach: Movable<AchRow, AchTarget> = {
  resource: "ach",
  table: achTransfers,
  body: z.strictObject({ to: statusOf("to", achStatuses), error: message.optional() }),
  target({ to, error }: { to: string; error?: string }) {
    if (error !== undefined && to !== "returned" && to !== "error") {
      throw badRequest("error applies only to returned (a return code such as R01) and error (a message)");
    }
    if (to === "returned" && error !== undefined && !Object.hasOwn(achReturnCodes, error)) {
      throw badRequest(`error must be an ACH return code: one of ${Object.keys(achReturnCodes).join(", ")}`);
    }
    return achTarget(to, error);
  },
  targets: achStatuses.map((to) => achTarget(to)),
  read: async (ctx, id) =>
    (
      await ctx.db
        .select({ id: achTransfers.id, status: achTransfers.status, amount: achTransfers.amount })
        .from(achTransfers)
        .where(eq(achTransfers.id, id))
    )[0],
  describe: (row) => row.status,
  step: (row, outcome) => nextAchState(row, outcome),
  reached: (row, target) => row.status === target.to,
  guard: (row) => eq(achTransfers.status, row.status),
};

type NetworkTransferRow = NetworkTransferState & { id: string };
type NetworkTransferTarget = Target<NetworkTransferOutcome> & { to: string };
const networkTransferTarget = (to: string, error?: string): NetworkTransferTarget => {
  const outcome: NetworkTransferOutcome =
    to === "error"
      ? { status: "error", error: error ?? defaultErrors.network_transfer }
      : to === "canceled"
        ? { status: "canceled" }
        : { status: "sent" };
  return { list: "valid", label: to, to, outcome };
};

export const networkTransfer: Movable<NetworkTransferRow, NetworkTransferTarget> = {
  resource: "network_transfer",
  table: networkTransfers,
  body: z.strictObject({ to: statusOf("to", networkTransferStatuses), error: message.optional() }),
  target({ to, error }: { to: string; error?: string }) {
    if (error !== undefined && to !== "error") throw badRequest("error applies only to error (the failure's message)");
    return networkTransferTarget(to, error);
  },
  targets: networkTransferStatuses.map((to) => networkTransferTarget(to)),
  read: async (ctx, id) => (await ctx.db.select(networkTransferStepColumns).from(networkTransfers).where(eq(networkTransfers.id, id)))[0],
  describe: (row) => row.status,
  // From sent, the only step is a v2 cross-bank transfer's balancing wire: `sent` again, now balanced.
  step: (row, outcome, now) => nextNetworkTransferState(row, now, outcome),
  reached: (row, target) => row.status === target.to,
  guard: networkTransferStepGuard,
};

type FednowRow = FednowState & { id: string };
/** An instant payment's target: a status, and for a sent payment the external status it reaches. */
type FednowTarget = Target<FednowOutcome> & { status: string; external_status: string | null };
const settled = (externalStatus: "done" | "rejected" | "blocked" | "error", reason?: string): FednowOutcome => ({
  status: "settled",
  externalStatus,
  externalRejectReason: reason === undefined ? null : { code: reason, message: fednowRejectReasons[reason]! },
});
const fednowToTarget = (to: string, error?: string): FednowTarget => ({
  list: "valid",
  label: to,
  status: to,
  // A payment that becomes sent starts its life at the receiving side: external_status pending.
  external_status: to === "sent" ? "pending" : null,
  outcome: to === "error" ? { status: "error", error: error ?? defaultErrors.fednow } : settled("done"),
});
const fednowExternalTarget = (external: string, reason?: string): FednowTarget => ({
  list: "valid_external_status",
  label: external,
  status: "sent",
  external_status: external,
  outcome:
    external === "rejected"
      ? settled("rejected", reason ?? defaultRejectReason)
      : external === "done" || external === "blocked" || external === "error"
        ? settled(external)
        : settled("done"),
});

export const fednow: Movable<FednowRow, FednowTarget> = {
  resource: "fednow",
  table: fednowPayments,
  body: z.strictObject({
    to: statusOf("to", fednowStatuses).optional(),
    external_status: statusOf("external_status", fednowExternalStatuses).optional(),
    error: message.optional(),
    external_reject_reason: statusOf("external_reject_reason", Object.keys(fednowRejectReasons) as [string, ...string[]]).optional(),
  }),
  target(body: { to?: string; external_status?: string; error?: string; external_reject_reason?: string }) {
    if (body.to === undefined && body.external_status === undefined) {
      throw badRequest("to is required (or external_status, where a sent payment stands at the receiving side)");
    }
    if (body.external_status !== undefined && body.to !== undefined && body.to !== "sent") {
      throw badRequest("to must be sent (or left out) when external_status is given: only sent payments have an external_status");
    }
    if (body.error !== undefined && (body.to !== "error" || body.external_status !== undefined)) {
      throw badRequest("error applies only to to error (the failure's message)");
    }
    if (body.external_reject_reason !== undefined && body.external_status !== "rejected") {
      throw badRequest("external_reject_reason applies only to external_status rejected");
    }
    return body.external_status !== undefined
      ? fednowExternalTarget(body.external_status, body.external_reject_reason)
      : fednowToTarget(body.to!, body.error);
  },
  targets: [...fednowStatuses.map((to) => fednowToTarget(to)), ...fednowExternalStatuses.map((external) => fednowExternalTarget(external))],
  read: async (ctx, id) => {
    const t = fednowPayments;
    const [row] = await ctx.db
      .select({ id: t.id, status: t.status, amount: t.amount, payment_type: t.payment_type, external_status: t.external_status })
      .from(t)
      .where(eq(t.id, id));
    return row && { ...row, payment_type: row.payment_type === "debit" ? "debit" : "credit" };
  },
  describe: (row) => (row.external_status === null ? row.status : `${row.status} (external_status ${row.external_status})`),
  step: (row, outcome) => nextFednowState(row, outcome),
  reached: (row, target) => row.status === target.status && row.external_status === target.external_status,
  guard: (row) => and(eq(fednowPayments.status, row.status), sql`${fednowPayments.external_status} IS NOT DISTINCT FROM ${row.external_status}`),
};
