/**
 * Values a list column or an export computes from fields the bank returned: the return code alone (`R01`) out of an
 * ACH transfer's `error` ("R01 Insufficient Funds"), a reject reason in words, whether a webhook is the console's own
 * subscription. Never a value the bank did not give grounds for: each derivation names the bank fields it reads, and
 * is null when they say nothing. The bank's own fields stay exactly its answer; a derived value sits beside them under
 * a name of its own. Client-safe: a definition names its derivation (definitions travel from the server to the browser
 * as data), and this table says how to compute it. A code's words (its title, meaning and next step) come from the
 * word tables of lib/contract/reason-codes.ts, passed in as `explain`: the server imports them, a page loads them
 * apart from its first scripts (components/bank/use-failure-explainer.ts), and until then a code shows alone.
 */
import { achReturnCodeOf, rejectCodeOf } from "@/lib/contract/failure-codes";
import type { ExplainedReason, FailureExplainer } from "@/lib/contract/reason-codes";
import { valueAt } from "@/lib/format";
import type { Field } from "./types";

interface Derivation {
  /** The bank's top-level fields it reads: a list's first-load payload keeps them (./list-payload.ts). */
  reads: readonly string[];
  value(object: Record<string, unknown>, explain: FailureExplainer | null): string | null;
  /** What the value means, for the hover of its cell; none when the value says it all. */
  hint?(object: Record<string, unknown>, explain: FailureExplainer | null): string | null;
}

/** "R01 Insufficient Funds: The receiving account did not have enough money…" (the code's whole explanation). */
const described = (reason: ExplainedReason | null) =>
  reason ? `${reason.code ? `${reason.code} ${reason.title}` : reason.title}: ${reason.meaning}` : null;

/** Why a transfer or payment failed (lib/contract/reason-codes.ts): its network code, and that code's title in words. */
function failure(
  kind: "ach" | "fednow",
  reads: readonly string[],
  codeOf: (object: Record<string, unknown>) => string | null,
): { code: Derivation; reason: Derivation } {
  const explained = (object: Record<string, unknown>, explain: FailureExplainer | null) => explain?.(kind, object) ?? null;
  return {
    code: { reads, value: codeOf, hint: (object, explain) => described(explained(object, explain)) },
    reason: {
      reads,
      value: (object, explain) => explained(object, explain)?.title ?? null,
      hint: (object, explain) => explained(object, explain)?.meaning ?? null,
    },
  };
}

const achFailure = failure("ach", ["error"], (object) => achReturnCodeOf(object.error));
const instantPaymentFailure = failure("fednow", ["error", "external_reject_reason", "external_status"], rejectCodeOf);

export const derivations = {
  /** The NACHA return code an ACH transfer's `error` starts with. */
  ach_return_code: achFailure.code,
  /** Its official title ("Insufficient Funds"); the bank's words when the error carries no code. */
  ach_return_reason: achFailure.reason,
  /** An instant payment's ISO 20022 reject reason code (`external_reject_reason.code`). */
  fednow_reject_code: instantPaymentFailure.code,
  /** Its title, else the bank's message or error. */
  fednow_reject_reason: instantPaymentFailure.reason,
} satisfies Record<string, Derivation>;

export type DerivedValue = keyof typeof derivations;

const derivationOf = (field: Field): Derivation | undefined => (field.derived ? derivations[field.derived] : undefined);

const asRecord = (object: unknown): Record<string, unknown> => (object && typeof object === "object" ? (object as Record<string, unknown>) : {});

/** What a field shows of an object: the value at its key, or the value its derivation computes. */
export function fieldValue(object: unknown, field: Field, explain: FailureExplainer | null): unknown {
  const derivation = derivationOf(field);
  return derivation ? derivation.value(asRecord(object), explain) : valueAt(object, field.key);
}

/** What a derived value means, for its hover; null for a field read as the bank gave it (or before the words load). */
export function fieldHint(object: unknown, field: Field, explain: FailureExplainer | null): string | null {
  return derivationOf(field)?.hint?.(asRecord(object), explain) ?? null;
}

/** Whether a field's value or hint needs the word tables (a derivation of a failure). */
export const needsFailureWords = (field: Field): boolean => Boolean(derivationOf(field)?.hint);

/** The bank's top-level fields a field shows: its key's first step, or what its derivation reads. */
export const fieldSources = (field: Field): readonly string[] => derivationOf(field)?.reads ?? [field.key.split(".")[0]!];

/** The derived columns of a list, in order: an export adds them after the bank's fields, named by their keys. */
export const derivedColumns = (columns: readonly Field[]): Field[] => columns.filter((column) => column.derived);

/** A row with its derived columns' values added under their keys (the bank's own fields unchanged). */
export function withDerivedValues<Row extends Record<string, unknown>>(derived: readonly Field[], row: Row, explain: FailureExplainer): Row {
  if (derived.length === 0) return row;
  return { ...row, ...Object.fromEntries(derived.map((field) => [field.key, fieldValue(row, field, explain)])) };
}
