import { z } from "zod";
import type { AuditEntry } from "@/lib/audit/trail";
import { findOperation, type BankClient, type OperationInput } from "@/lib/bank/client";
import { bankBaseUrl } from "@/lib/bank/transport";
import { opaqueId, pathParameters, type Operation } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import type { ListedResource } from "@/lib/contract/operations";
import { maskForViewer, shownInAnswer, type MaskedResource } from "@/lib/pii";
import { guardMaskedFilters, maskedFilterAction } from "@/lib/search/masked-filters";
import { exposedOperations, type ExposedOperation } from "./bank-allowlist";
import { compileUnmaskedRead, revealRoute, userdataSegment, type UnmaskedReadDependencies } from "./bank-reveal";
/** The reason-only body of an unmasked export (lib/export imports it from here); the reveal path is bank-reveal.ts. */
export { revealBody } from "./bank-reveal";
import { bankNotConfigured, changesPaused, ConsoleError } from "./errors";
import { can } from "@/lib/permissions";
import type { ApiCall, RouteDefinition, RouteResolver } from "./route";
import type { ApprovalAnswer } from "@/lib/approvals/codes";
import type { HeldBankChange } from "@/lib/approvals/service";
import type { StaffUser } from "@/lib/auth/staff-user";
import { heldAnswer, secretFields } from "@/lib/approvals/codes";
import { log } from "@/lib/log";
import { consoleWebhookRefusal, consoleWebhookTargetRefusal, isConsoleWebhook } from "@/lib/index/console-webhooks";
import {
  indexCopyField,
  isIndexedResource,
  bankIsNotAnswering,
  defaultOutageRetryAfterSeconds,
  onlyFromTheBank,
  type IndexCopies,
  type IndexCopyMark,
} from "./index-fallback";

/** What the proxy needs from the rest of the console; the route file wires the real ones (lib/credentials, lib/audit). */
export interface BankProxyDependencies extends UnmaskedReadDependencies {
  activeEnvironment(): Promise<Environment>;
  /** A client for the environment's bank, or null when that environment has no connection configured. */
  bankClient(environment: Environment): Promise<BankClient | null>;
  /** Writes the audit record first, performs the mutation only if that worked, then finalizes it (lib/audit). */
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  /** Records a reveal of personal data; throws when the record cannot be written (then nothing is revealed). */
  recordAuditEvent(entry: AuditEntry & { after?: unknown }): Promise<void>;
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
  /**
   * The console's index of the bank (lib/api/index-fallback.ts): while the bank cannot answer, list and detail reads
   * answer its copy, masked as the bank's answer is and marked `console_index_copy` (docs/bank-outage.md).
   */
  indexCopies?: IndexCopies;
}

export const consoleBankPrefix = "/api/bank";

const noQuery = z.strictObject({});

type ProxyCall = ApiCall<Record<string, string>, Record<string, unknown>, unknown>;

interface CompiledOperation {
  operation: Operation;
  pattern: RegExp;
  parameterNames: string[];
  route: RouteDefinition;
  /** Changes only: performs the change in `environment` without holding it for approval (an approved request). */
  send?: (call: ProxyCall, environment: Environment) => Promise<unknown>;
  /** Changes that replace a bank object: what the change would replace now, cut as a held request's `before`. */
  beforeNow?: (environment: Environment, params: Record<string, string>, body: unknown) => Promise<unknown>;
}

/**
 * What an approver is shown of the state a held change replaces: for a body, the same fields as the bank holds them
 * now (userdata as the editor reads it); for a delete, the object masked by its allowlist. Secrets never.
 */
function heldBefore(exposed: ExposedOperation, before: unknown, body: unknown): unknown {
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

function targetOf(call: ProxyCall): string | null {
  if (call.params.id) return call.params.id;
  const simulation = (call.body as { simulation?: { card_id?: unknown } } | undefined)?.simulation;
  return typeof simulation?.card_id === "string" ? simulation.card_id : null;
}

/** Points a list's `page_next` (a bank URL) at the same list through the console. */
function throughConsole(result: unknown, bank: BankClient): unknown {
  if (!result || typeof result !== "object" || !("page_next" in result) || typeof result.page_next !== "string") return result;
  const base = bankBaseUrl(bank.baseUrl);
  const next = new URL(result.page_next, base);
  const relative = next.pathname.startsWith(base.pathname) ? next.pathname.slice(base.pathname.length - 1) : next.pathname;
  return { ...result, page_next: `${consoleBankPrefix}${relative}${next.search}` };
}

/**
 * A bank answer as staff see it by default: the object, or each object of a page, masked in place by its allowlist;
 * `kept` fields stay as the bank sent them (those lib/pii.ts shows the caller's role in the answer).
 */
function masked(resource: MaskedResource, result: unknown, isList: boolean, kept: readonly string[] = []): unknown {
  const maskOne = (object: Record<string, unknown>) => {
    const original = kept.map((field) => [field, object[field]] as const);
    maskForViewer(resource, object);
    for (const [field, value] of original) if (value !== undefined) object[field] = value;
    return object;
  };
  if (!isList) return maskOne(result as Record<string, unknown>);
  for (const item of (result as { data: Record<string, unknown>[] }).data) maskOne(item);
  return result;
}

function compile(exposed: ExposedOperation, dependencies: BankProxyDependencies): CompiledOperation {
  const operation = findOperation(exposed.operationId);
  const parameterNames = pathParameters(operation.path);
  const pattern = new RegExp(`^${operation.path.replace(/\{[a-z_]+\}/g, "([^/]+)")}$`);
  const isList = operation.response.schema !== undefined && operation.operationId.startsWith("list_");
  const query = operation.query ?? noQuery;
  const outageRetryAfterSeconds = dependencies.outageRetryAfterSeconds ?? defaultOutageRetryAfterSeconds;

  async function handle(call: ProxyCall): Promise<unknown> {
    return perform(call, await dependencies.activeEnvironment(), true);
  }

  async function perform(call: ProxyCall, environment: Environment, mayHold: boolean): Promise<unknown> {
    if (operation.sandboxOnly && environment !== "sandbox") {
      throw new ConsoleError(403, "sandbox_only", "Simulations exist only in the sandbox environment; switch to sandbox in the header.");
    }
    // A filter on a masked field is a read of it: refused to a role that sees it masked, before anything is sent.
    const maskedFilter = isList && exposed.resource ? await guardMaskedFilters(exposed.resource, call.user, call.query) : null;
    const bank = await dependencies.bankClient(environment);
    if (!bank) throw bankNotConfigured(environment);
    const bankQuery = operation.query ? call.query : undefined;
    const input: OperationInput = { params: call.params, query: bankQuery, body: call.body };
    const entry = {
      actor: { id: call.user.id, email: call.user.email, role: call.user.role },
      environment,
      targetId: targetOf(call),
      requestId: call.requestId,
    };

    const before = exposed.audit?.before ? await bank.call(exposed.audit.before, { params: call.params }).catch(pausedChange) : undefined;
    if (exposed.guardsConsoleWebhooks) refuseConsoleWebhookChange(before, call.body, dependencies.consoleAddress?.() ?? null);
    if (mayHold && exposed.fourEyes && exposed.audit && dependencies.approvals && (await dependencies.approvals.required(environment))) {
      // Held, not sent: the request carries exactly what would be sent; a second person approves it (docs/approvals.md).
      const held = await dependencies.approvals.holdBank(call.user, call.requestId, {
        environment,
        action: exposed.audit.action,
        permission: exposed.permission,
        operationId: exposed.operationId,
        method: operation.method.toUpperCase(),
        path: operation.path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => call.params[name] ?? ""),
        params: call.params,
        targetId: targetOf(call),
        body: call.body ?? null,
        before: heldBefore(exposed, before, call.body),
      });
      return heldAnswer(held);
    }
    let result: unknown;
    let copy: IndexCopyMark | undefined;
    if (exposed.audit) {
      result = await dependencies.audited({ ...entry, action: exposed.audit.action, before }, () => bank.call(exposed.operationId, input), {
        after: auditedState,
      });
    } else {
      // A filter on a masked field is audited with where its answer came from, the bank or the index.
      const read = <T>(source: "bank" | "index", perform: () => Promise<T>, rows: (result: T) => number) =>
        maskedFilter && exposed.resource
          ? dependencies.audited({ ...entry, action: maskedFilterAction(exposed.resource), before: { filters: maskedFilter, source } }, perform, {
              after: (answer) => ({ rows: rows(answer) }),
            })
          : perform();
      try {
        result = await read(
          "bank",
          () => bank.call(exposed.operationId, input),
          (page) => (page as { data: unknown[] }).data.length,
        );
      } catch (error) {
        if (onlyTheBankAnswers) throw onlyFromTheBank(error, "this is read from the bank itself", outageRetryAfterSeconds);
        const fallback = readsFromIndex && bankIsNotAnswering(error) ? await indexCopyOf(environment, call, error, read) : null;
        if (!fallback) throw error;
        ({ result, mark: copy } = fallback);
      }
    }
    // Changes are masked like reads (a no-op PATCH must not unmask what a GET masks); the audit keeps the whole answer.
    const shown =
      result === undefined || result === null
        ? result
        : exposed.answer
          ? exposed.answer(result as Record<string, unknown>)
          : exposed.resource
            ? masked(exposed.resource, result, isList, shownInAnswer(exposed.resource, call.user.role))
            : result;
    if (copy) return { ...(shown as Record<string, unknown>), [indexCopyField]: copy };
    return isList ? throughConsole(shown, bank) : shown;
  }

  /** Lists and details of indexed resources (not their reveal or userdata reads, nor changes) have an index copy. */
  const hasIndexCopy =
    operation.method === "get" &&
    !exposed.audit &&
    isIndexedResource(exposed.resource) &&
    (isList || operation.operationId === `get_${exposed.resource}`);
  const readsFromIndex = dependencies.indexCopies !== undefined && hasIndexCopy;
  /** Reads the index keeps no copy of (a webhook's deliveries): while the bank is not answering, a 503 saying so. */
  const onlyTheBankAnswers = operation.method === "get" && !exposed.audit && !hasIndexCopy;

  async function indexCopyOf(
    environment: Environment,
    call: ProxyCall,
    failure: unknown,
    read: <T>(source: "index", perform: () => Promise<T>, rows: (result: T) => number) => Promise<T>,
  ) {
    const copies = dependencies.indexCopies!;
    const resource = exposed.resource as ListedResource;
    return isList
      ? read(
          "index",
          () => copies.list(environment, resource, call.query, `${consoleBankPrefix}${operation.path}`, failure),
          (copy) => copy?.result.data.length ?? 0,
        )
      : copies.get(environment, resource, call.params.id ?? "", failure);
  }

  const route: RouteDefinition<Record<string, string>, Record<string, unknown>, unknown> = {
    permission: exposed.permission,
    params: z.strictObject(Object.fromEntries(parameterNames.map((name) => [name, opaqueId]))) as z.ZodType<Record<string, string>>,
    query: query as z.ZodType<Record<string, unknown>>,
    body: exposed.body ?? operation.body,
    status: operation.response.status,
    handle,
  };
  const send = exposed.audit
    ? (call: ProxyCall, environment: Environment) =>
        perform({ ...call, body: call.body === undefined || !route.body ? undefined : parseBody(route.body, call.body) }, environment, false)
    : undefined;
  const beforeRead = exposed.audit?.before;
  const beforeNow = beforeRead
    ? async (environment: Environment, params: Record<string, string>, body: unknown) => {
        const bank = await dependencies.bankClient(environment);
        if (!bank) throw bankNotConfigured(environment);
        return heldBefore(exposed, await bank.call(beforeRead, { params }).catch(pausedChange), body);
      }
    : undefined;
  return { operation, pattern, parameterNames, route: route as RouteDefinition, send, beforeNow };
}

/**
 * The read a change starts with (its audit `before`, the editor's current userdata, an approval's staleness check)
 * failing because the bank is not answering: the change is refused as paused, having sent nothing and kept nothing.
 */
function pausedChange(error: unknown): never {
  if (bankIsNotAnswering(error)) throw changesPaused();
  throw error;
}

/** A held body checked again against the operation's schema before it is sent (it was valid when held). */
function parseBody(schema: z.ZodType, body: unknown): unknown {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConsoleError(400, "invalid_input", `The held change is no longer valid: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * The proxy's routes: as a resolver, `/api/bank/<bank path>` to the exposed operation with that method and path
 * pattern, or undefined (404; the catch-all segment arrives as `params.path`); and `readRoute(operationId)`, an exposed
 * read by name, for server pages (lib/api/server-read.ts).
 */
export type BankProxy = RouteResolver & {
  readRoute(operationId: string): RouteDefinition | undefined;
  /**
   * Sends an approved change (lib/approvals): the operation's own path (its body schema, audit record and masking of
   * the answer) in the request's environment, as the approver, never held again. Throws what the bank answered.
   */
  sendApproved(
    change: { environment: Environment; operationId: string; params: Record<string, string>; body: unknown },
    approver: StaffUser,
    requestId: string,
  ): Promise<unknown>;
  /**
   * What a held change would replace at the bank now, cut as its request's `before` was (lib/approvals refuses to
   * approve a change whose object changed since); undefined for a change that replaces nothing (a creation).
   */
  heldBeforeNow(change: { environment: Environment; operationId: string; params: Record<string, string>; body: unknown }): Promise<unknown>;
};

export function bankProxyResolver(dependencies: BankProxyDependencies): BankProxy {
  const compiled = exposedOperations.flatMap((exposed): CompiledOperation[] => {
    const reveal =
      exposed.resource && exposed.operationId.startsWith("get_") ? [revealRoute({ ...exposed, resource: exposed.resource }, dependencies)] : [];
    const editable = exposed.editableUserdata
      ? [
          compileUnmaskedRead(exposed, dependencies, {
            segment: userdataSegment,
            permission: exposed.editableUserdata,
            action: `${exposed.resource}.userdata.read`,
            onReadFailure: pausedChange,
            answer: (object) => ({ shown: { userdata: object.userdata ?? null, updated_at: object.updated_at } }),
          }),
        ]
      : [];
    return [compile(exposed, dependencies), ...reveal, ...editable];
  });
  const resolve: RouteResolver = ({ method, params }) => {
    const segments = params.path;
    if (!Array.isArray(segments)) return undefined;
    const bankPath = `/${segments.join("/")}`;
    for (const candidate of compiled) {
      if (candidate.operation.method !== method.toLowerCase()) continue;
      const match = candidate.pattern.exec(bankPath);
      if (!match) continue;
      return {
        route: candidate.route,
        params: Object.fromEntries(candidate.parameterNames.map((name, index) => [name, match[index + 1]])),
      };
    }
    return undefined;
  };
  const readRoute = (operationId: string) =>
    compiled.find((candidate) => candidate.operation.operationId === operationId && candidate.operation.method === "get")?.route;
  const sendApproved: BankProxy["sendApproved"] = async (change, approver, requestId) => {
    const candidate = compiled.find((compiledOperation) => compiledOperation.operation.operationId === change.operationId && compiledOperation.send);
    if (!candidate?.send) throw new ConsoleError(400, "invalid_input", `${change.operationId} is not a change the console sends`);
    if (!can(approver.role, candidate.route.permission))
      throw new ConsoleError(403, "forbidden", `sending this change needs ${candidate.route.permission}`);
    const call: ProxyCall = {
      requestId,
      log: log.child({ requestId }),
      user: approver,
      params: change.params,
      query: {},
      body: change.body,
      searchParams: new URLSearchParams(),
    };
    const answer = await candidate.send(call, change.environment);
    return answer instanceof Response ? await answer.json().catch(() => null) : answer;
  };
  const heldBeforeNow: BankProxy["heldBeforeNow"] = async (change) => {
    const candidate = compiled.find((compiledOperation) => compiledOperation.operation.operationId === change.operationId && compiledOperation.send);
    return candidate?.beforeNow?.(change.environment, change.params, change.body);
  };
  return Object.assign(resolve, { readRoute, sendApproved, heldBeforeNow });
}
