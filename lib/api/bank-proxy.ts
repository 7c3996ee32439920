import { z } from "zod";
import { findOperation, type BankClient, type OperationInput } from "@/lib/bank/client";
import { bankBaseUrl } from "@/lib/bank/transport";
import { opaqueId, pathParameters, type Operation } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import type { ListedResource } from "@/lib/contract/operations";
import { maskForViewer, shownInAnswer, type MaskedResource } from "@/lib/pii";
import { guardMaskedFilters, maskedFilterAction } from "@/lib/search/masked-filters";
import { exposedOperations, type ExposedOperation } from "./bank-allowlist";
import { heldBefore, parseHeldBody, pausedChange, sendChange, type ChangeDependencies, type ProxyCall } from "./bank-proxy-changes";
import { compileUnmaskedRead, revealRoute, userdataSegment, type UnmaskedReadDependencies } from "./bank-reveal";
/** The reason-only body of an unmasked export (lib/export imports it from here); the reveal path is bank-reveal.ts. */
export { revealBody } from "./bank-reveal";
import { bankNotConfigured, ConsoleError } from "./errors";
import { can } from "@/lib/permissions";
import type { RouteDefinition, RouteResolver } from "./route";
import type { StaffUser } from "@/lib/auth/staff-user";
import { log } from "@/lib/log";
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
export interface BankProxyDependencies extends UnmaskedReadDependencies, ChangeDependencies {
  activeEnvironment(): Promise<Environment>;
  /** A client for the environment's bank, or null when that environment has no connection configured. */
  bankClient(environment: Environment): Promise<BankClient | null>;
  /**
   * The console's index of the bank (lib/api/index-fallback.ts): while the bank cannot answer, list and detail reads
   * answer its copy, masked as the bank's answer is and marked `console_index_copy` (docs/bank-outage.md).
   */
  indexCopies?: IndexCopies;
}

export const consoleBankPrefix = "/api/bank";

const noQuery = z.strictObject({});

interface CompiledOperation {
  operation: Operation;
  pattern: RegExp;
  parameterNames: string[];
  route: RouteDefinition;
  /** Changes only: performs the change in `environment` without holding it for approval (an approved request). */
  send?: (call: ProxyCall, environment: Environment, before?: Record<string, unknown>) => Promise<unknown>;
  /** Changes that replace a bank object: what the change would replace now, cut as a held request's `before`. */
  beforeNow?: (environment: Environment, params: Record<string, string>, body: unknown) => Promise<unknown>;
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

  /** `before`: the replaced object as the caller has just read it (see `Change.before`). */
  async function perform(call: ProxyCall, environment: Environment, mayHold: boolean, before?: Record<string, unknown>): Promise<unknown> {
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

    let result: unknown;
    let copy: IndexCopyMark | undefined;
    if (exposed.audit) {
      const change = await sendChange({
        exposed,
        audit: exposed.audit,
        operation,
        dependencies,
        environment,
        call,
        bank,
        input,
        entry,
        mayHold,
        before,
      });
      if ("held" in change) return change.held;
      result = change.result;
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
    ? (call: ProxyCall, environment: Environment, before?: Record<string, unknown>) =>
        perform(
          { ...call, body: call.body === undefined || !route.body ? undefined : parseHeldBody(route.body, call.body) },
          environment,
          false,
          before,
        )
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

/** A change sent without being held (an approved request, a bulk row): the operation, where, and what it is called with. */
export interface SentChange {
  environment: Environment;
  operationId: string;
  params: Record<string, string>;
  body: unknown;
  /**
   * The object the change replaces, as the sender has just read it through the operation's own read of its state
   * before (a bulk row, lib/bulk/runner.ts): kept as the audit record's `before` instead of reading it again.
   */
  before?: Record<string, unknown>;
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
  sendApproved(change: SentChange, approver: StaffUser, requestId: string): Promise<unknown>;
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
    const answer = await candidate.send(call, change.environment, change.before);
    return answer instanceof Response ? await answer.json().catch(() => null) : answer;
  };
  const heldBeforeNow: BankProxy["heldBeforeNow"] = async (change) => {
    const candidate = compiled.find((compiledOperation) => compiledOperation.operation.operationId === change.operationId && compiledOperation.send);
    return candidate?.beforeNow?.(change.environment, change.params, change.body);
  };
  return Object.assign(resolve, { readRoute, sendApproved, heldBeforeNow });
}
