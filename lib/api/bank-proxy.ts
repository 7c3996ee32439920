import { z } from "zod";
import type { AuditEntry } from "@/lib/audit/trail";
import { findOperation, type BankClient, type OperationInput } from "@/lib/bank/client";
import { opaqueId, pathParameters, type Operation } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import { maskForViewer, type MaskedResource } from "@/lib/pii";
import { exposedOperations, type ExposedOperation } from "./bank-allowlist";
import { bankNotConfigured, ConsoleError } from "./errors";
import type { Permission } from "@/lib/permissions";
import type { ApiCall, RouteDefinition, RouteResolver } from "./route";

/** What the proxy needs from the rest of the console; the route file wires the real ones (lib/credentials, lib/audit). */
export interface BankProxyDependencies {
  activeEnvironment(): Promise<Environment>;
  /** A client for the environment's bank, or null when that environment has no connection configured. */
  bankClient(environment: Environment): Promise<BankClient | null>;
  /** Writes the audit record first, performs the mutation only if that worked, then finalizes it (lib/audit). */
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  /** Records a reveal of personal data; throws when the record cannot be written (then nothing is revealed). */
  recordAuditEvent(entry: AuditEntry & { after?: unknown }): Promise<void>;
}

export const consoleBankPrefix = "/api/bank";

const noQuery = z.strictObject({});

/** Revealing personal data is a POST to the object's path plus this segment: never a side effect of a GET. */
export const revealSegment = "reveal";
/** Reading the current userdata to edit it: a POST too, since GET answers mask userdata for every role. */
export const userdataSegment = "userdata";

type ProxyCall = ApiCall<Record<string, string>, Record<string, unknown>, unknown>;

interface CompiledOperation {
  operation: Operation;
  pattern: RegExp;
  parameterNames: string[];
  route: RouteDefinition;
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
  const base = new URL(bank.baseUrl.endsWith("/") ? bank.baseUrl : `${bank.baseUrl}/`);
  const next = new URL(result.page_next, base);
  const relative = next.pathname.startsWith(base.pathname) ? next.pathname.slice(base.pathname.length - 1) : next.pathname;
  return { ...result, page_next: `${consoleBankPrefix}${relative}${next.search}` };
}

/** A bank answer as staff see it by default: the object, or each object of a page, masked in place by its allowlist. */
function masked(resource: MaskedResource, result: unknown, isList: boolean): unknown {
  if (!isList) return maskForViewer(resource, result as Record<string, unknown>);
  for (const item of (result as { data: Record<string, unknown>[] }).data) maskForViewer(resource, item);
  return result;
}

function compile(exposed: ExposedOperation, dependencies: BankProxyDependencies): CompiledOperation {
  const operation = findOperation(exposed.operationId);
  const parameterNames = pathParameters(operation.path);
  const pattern = new RegExp(`^${operation.path.replace(/\{[a-z_]+\}/g, "([^/]+)")}$`);
  const isList = operation.response.schema !== undefined && operation.operationId.startsWith("list_");
  const query = operation.query ?? noQuery;

  async function handle(call: ProxyCall): Promise<unknown> {
    const environment = await dependencies.activeEnvironment();
    if (operation.sandboxOnly && environment !== "sandbox") {
      throw new ConsoleError(403, "sandbox_only", "Simulations exist only in the sandbox environment; switch to sandbox in the header.");
    }
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
    if (exposed.audit) {
      const before = exposed.audit.before ? await bank.call(exposed.audit.before, { params: call.params }) : undefined;
      result = await dependencies.audited({ ...entry, action: exposed.audit.action, before }, () => bank.call(exposed.operationId, input), {
        after: auditedState,
      });
    } else {
      result = await bank.call(exposed.operationId, input);
    }
    const shown = exposed.resource ? masked(exposed.resource, result, isList) : result;
    return isList ? throughConsole(shown, bank) : shown;
  }

  const route: RouteDefinition<Record<string, string>, Record<string, unknown>, unknown> = {
    permission: exposed.permission,
    params: z.strictObject(Object.fromEntries(parameterNames.map((name) => [name, opaqueId]))) as z.ZodType<Record<string, string>>,
    query: query as z.ZodType<Record<string, unknown>>,
    body: exposed.body ?? operation.body,
    status: operation.response.status,
    handle,
  };
  return { operation, pattern, parameterNames, route: route as RouteDefinition };
}

/**
 * `POST <object path>/<segment>`: an unmasked read for roles holding `permission`. A POST so that no link or
 * prefetch can unmask anything (the wrapper checks the Origin of every non-GET); audited before the answer leaves,
 * and never stored by a cache. Two exist: `reveal` (the whole object, `pii:reveal`) and, for objects whose userdata
 * staff may edit, `userdata` (that field and `updated_at` only, to the role that may edit it).
 */
function compileUnmaskedRead(
  exposed: ExposedOperation,
  dependencies: BankProxyDependencies,
  unmasked: { segment: string; permission: Permission; action: string; pick?: (object: Record<string, unknown>) => unknown },
): CompiledOperation {
  const read = findOperation(exposed.operationId);
  const operation: Operation = { ...read, method: "post", path: `${read.path}/${unmasked.segment}` };
  const parameterNames = pathParameters(read.path);
  const route: RouteDefinition<Record<string, string>, Record<string, never>, undefined> = {
    permission: unmasked.permission,
    params: z.strictObject(Object.fromEntries(parameterNames.map((name) => [name, opaqueId]))) as z.ZodType<Record<string, string>>,
    query: noQuery as z.ZodType<Record<string, never>>,
    async handle(call) {
      const environment = await dependencies.activeEnvironment();
      const bank = await dependencies.bankClient(environment);
      if (!bank) throw bankNotConfigured(environment);
      const result = (await bank.call(exposed.operationId, { params: call.params })) as Record<string, unknown>;
      // Recorded before the answer leaves: when the record cannot be written, nothing is unmasked.
      await dependencies.recordAuditEvent({
        actor: { id: call.user.id, email: call.user.email, role: call.user.role },
        environment,
        targetId: call.params.id ?? null,
        requestId: call.requestId,
        action: unmasked.action,
      });
      return Response.json(unmasked.pick ? unmasked.pick(result) : result, { headers: { "cache-control": "no-store" } });
    },
  };
  return { operation, pattern: new RegExp(`^${operation.path.replace(/\{[a-z_]+\}/g, "([^/]+)")}$`), parameterNames, route: route as RouteDefinition };
}

/**
 * Resolves `/api/bank/<bank path>` to the exposed operation with that method and path pattern, or undefined (404).
 * The catch-all segment arrives as `params.path`.
 */
export function bankProxyResolver(dependencies: BankProxyDependencies): RouteResolver {
  const compiled = exposedOperations.flatMap((exposed) => {
    const reveal =
      exposed.resource && exposed.operationId.startsWith("get_")
        ? [compileUnmaskedRead(exposed, dependencies, { segment: revealSegment, permission: "pii:reveal", action: `${exposed.resource}.reveal` })]
        : [];
    const editable = exposed.editableUserdata
      ? [
          compileUnmaskedRead(exposed, dependencies, {
            segment: userdataSegment,
            permission: exposed.editableUserdata,
            action: `${exposed.resource}.userdata.read`,
            pick: (object) => ({ userdata: object.userdata ?? null, updated_at: object.updated_at }),
          }),
        ]
      : [];
    return [compile(exposed, dependencies), ...reveal, ...editable];
  });
  return ({ method, params }) => {
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
}
