import type { z } from "zod";
import type { ApprovalAnswer } from "@/lib/approvals/codes";
import { heldAnswer, secretFields } from "@/lib/approvals/codes";
import type { HeldBankChange } from "@/lib/approvals/service";
import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { BankClient, OperationInput } from "@/lib/bank/client";
import type { Operation } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import { consoleWebhookRefusal, consoleWebhookTargetRefusal, isConsoleWebhook } from "@/lib/index/console-webhooks";
import { maskForViewer } from "@/lib/pii";
import type { ExposedOperation } from "./bank-allowlist";
import { changesPaused, ConsoleError } from "./errors";
import { bankIsNotAnswering } from "./index-fallback";
import type { ApiCall } from "./route";

/** A call of a proxied operation: the bank path's parameters, the query and the body, checked by the route. */
export type ProxyCall = ApiCall<Record<string, string>, Record<string, unknown>, unknown>;

/** What a change through the proxy needs from the rest of the console (lib/audit, lib/approvals, lib/index). */
export interface ChangeDependencies {
  /** Writes the audit record first, performs the mutation only if that worked, then finalizes it (lib/audit). */
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  /**
   * Four-eyes on changes (lib/approvals, docs/approvals.md): where `required`, a change of an operation marked
   * `fourEyes` is not sent but held as a request (202 `{approval}`), and sent later by `sendApproved`.
   */
  approvals?: {
    required(environment: Environment): Promise<boolean>;
    holdBank(maker: StaffUser, requestId: string, change: HeldBankChange): Promise<ApprovalAnswer>;
  };
  /**
   * The console's address as the bank reaches it (its receiver of bank events, lib/index/runtime.ts): a webhook pointing
   * at that receiver is the console's own (lib/index/console-webhooks.ts); unset, the console's Basic user alone tells.
   */
  consoleAddress?(): string;
}

/** One change as the proxy sends it: the operation, who asks, in which environment, and the audit entry's common part. */
export interface Change {
  exposed: ExposedOperation;
  audit: NonNullable<ExposedOperation["audit"]>;
  operation: Operation;
  dependencies: ChangeDependencies;
  environment: Environment;
  call: ProxyCall;
  bank: BankClient;
  input: OperationInput;
  entry: Omit<AuditEntry, "action" | "before">;
  /** False for an approved request being sent: it is never held again. */
  mayHold: boolean;
  /**
   * The object as its sender has just read it with `audit.before` (a bulk row, lib/bulk/runner.ts): the state the
   * change replaces, so it is not read again. Absent, it is read here.
   */
  before?: Record<string, unknown>;
}

/**
 * Sends a change, audited: the state it replaces is read first unless the change comes with it (refused as paused when
 * the bank is not answering), a change of the console's own subscriptions is refused, and where four-eyes applies the
 * change is held as a request instead of sent. Answers the held request's answer, or the bank's answer to the change.
 */
export async function sendChange(change: Change): Promise<{ held: unknown } | { result: unknown }> {
  const { exposed, audit, operation, dependencies, environment, call, bank, entry } = change;
  const before = audit.before ? (change.before ?? (await bank.call(audit.before, { params: call.params }).catch(pausedChange))) : undefined;
  if (exposed.guardsConsoleWebhooks) refuseConsoleWebhookChange(before, call.body, dependencies.consoleAddress?.() ?? null);
  if (change.mayHold && exposed.fourEyes && dependencies.approvals && (await dependencies.approvals.required(environment))) {
    // Held, not sent: the request carries exactly what would be sent; a second person approves it (docs/approvals.md).
    const held = await dependencies.approvals.holdBank(call.user, call.requestId, {
      environment,
      action: audit.action,
      permission: exposed.permission,
      operationId: exposed.operationId,
      method: operation.method.toUpperCase(),
      path: operation.path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => call.params[name] ?? ""),
      params: call.params,
      targetId: entry.targetId,
      body: call.body ?? null,
      before: heldBefore(exposed, before, call.body),
    });
    return { held: heldAnswer(held) };
  }
  const result = await dependencies.audited({ ...entry, action: audit.action, before }, () => bank.call(exposed.operationId, change.input), {
    after: auditedState,
  });
  return { result };
}

/**
 * What an approver is shown of the state a held change replaces: for a body, the same fields as the bank holds them
 * now (userdata as the editor reads it); for a delete, the object masked by its allowlist. Secrets never.
 */
export function heldBefore(exposed: ExposedOperation, before: unknown, body: unknown): unknown {
  if (!before || typeof before !== "object") return null;
  const object = before as Record<string, unknown>;
  const picked =
    body && typeof body === "object"
      ? Object.fromEntries(Object.keys(body).map((key) => [key, object[key] ?? null]))
      : exposed.resource
        ? maskForViewer(exposed.resource, { ...object })
        : object;
  for (const field of secretFields) if (field in picked) delete (picked as Record<string, unknown>)[field];
  return picked;
}

/**
 * The console's own subscriptions carry its receiver's secret: a change of one (or one that would make a webhook the
 * console's own) is refused before anything is sent or audited; only the index settings change them.
 */
function refuseConsoleWebhookChange(before: unknown, body: unknown, consoleAddress: string | null): void {
  const current = before && typeof before === "object" ? (before as Record<string, unknown>) : null;
  if (isConsoleWebhook(current, consoleAddress)) throw new ConsoleError(403, "console_webhook", consoleWebhookRefusal);
  if (body && typeof body === "object" && isConsoleWebhook(body as Record<string, unknown>, consoleAddress))
    throw new ConsoleError(403, "console_webhook", consoleWebhookTargetRefusal);
}

/** What the audit trail keeps of a bank answer: everything except a card toolkit access token (a credential). */
function auditedState(result: unknown): unknown {
  if (result && typeof result === "object" && "access_token" in result) return { ...result, access_token: "[not recorded]" };
  return result ?? null;
}

/**
 * The read a change starts with (its audit `before`, the editor's current userdata, an approval's staleness check)
 * failing because the bank is not answering: the change is refused as paused, having sent nothing and kept nothing.
 */
export function pausedChange(error: unknown): never {
  if (bankIsNotAnswering(error)) throw changesPaused();
  throw error;
}

/** A held body checked again against the operation's schema before it is sent (it was valid when held). */
export function parseHeldBody(schema: z.ZodType, body: unknown): unknown {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConsoleError(400, "invalid_input", `The held change is no longer valid: ${parsed.error.message}`);
  return parsed.data;
}
