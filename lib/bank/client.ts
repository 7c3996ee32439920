import type { z } from "zod";
import { operations, pathParameters, type ListedResource, type Operation } from "@/lib/contract";
import { compileCheck, type CompiledCheck } from "@/lib/contract/compiled-check";
import { BankInvalidRequestError, BankInvalidResponseError, type BankCallDescription } from "./errors";
import type { BankOperations, Page } from "./operation-types";
import { defaultTransportOptions, sendBankRequest, type BankTarget, type HttpMethod, type TransportOptions } from "./transport";

export type { BankOperations, Page } from "./operation-types";
export type OperationId = keyof BankOperations;
/** The list operations: their answers carry `page_next`. */
export type ListOperationId = Extract<OperationId, `list_${string}`>;
type PageItem<O extends ListOperationId> = Awaited<ReturnType<BankOperations[O]>> extends Page<infer T> ? T : never;
/** An object of any listed resource. */
export type ListedObject = PageItem<ListOperationId>;

/** An operation's input once split into its parts; the route handlers call the bank with this. */
export interface OperationInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export type BankClient = BankOperations & {
  /** The bank's base URL (never the credentials): lets callers map a `page_next` onto their own routes. */
  readonly baseUrl: string;
  /** Any operation of the registry by id, with its input already split (params, query, body). */
  call(operationId: OperationId, input?: OperationInput): Promise<unknown>;
  /** Every page of a list, first to last, following `page_next` until the bank gives none. */
  pages<O extends ListOperationId>(operationId: O, ...args: Parameters<BankOperations[O]>): AsyncGenerator<Page<PageItem<O>>>;
  /** Every object of a list, across all its pages. */
  items<O extends ListOperationId>(operationId: O, ...args: Parameters<BankOperations[O]>): AsyncGenerator<PageItem<O>>;
  /** The reads by resource name, for code that serves every list alike (the export, the index). */
  readonly resources: ResourceReads;
};

/**
 * Reads by resource name. A query is checked against that resource's list query when sent, as every call's input is,
 * so a wrong filter is a BankInvalidRequestError naming it, never a request the bank would refuse.
 */
export interface ResourceReads {
  /** The first page of a list. */
  list(resource: ListedResource, query?: Record<string, unknown>): Promise<Page<ListedObject>>;
  /** Every page of a list, first to last. */
  listPages(resource: ListedResource, query?: Record<string, unknown>): AsyncGenerator<Page<ListedObject>>;
  /** The list page at a `page_next` the bank gave earlier (a resumed walk, lib/index/backfill.ts). */
  listPageAt(resource: ListedResource, pageNext: string): Promise<Page<ListedObject>>;
  /** One object by id. */
  get(resource: ListedResource, id: string): Promise<ListedObject>;
}

const registry = new Map(operations.map((operation) => [operation.operationId, operation]));

export function findOperation(operationId: string): Operation {
  const operation = registry.get(operationId);
  if (!operation) throw new Error(`The contract has no operation ${operationId}`);
  return operation;
}

/** zod issues as `field.path: message`, so a report names the field. */
export function describeIssues(error: z.ZodError, root = "(body)"): string[] {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : root}: ${issue.message}`);
}

/**
 * Functions take the path parameters in path order, then the body (operations with one) or the query (lists):
 * `get_ach(id)`, `list_ach(query)`, `patch_webhook(id, body)`, `list_webhook_deliveries(id, query)`.
 */
function inputFromArguments(operation: Operation, args: unknown[]): OperationInput {
  const names = pathParameters(operation.path);
  const params = Object.fromEntries(names.map((name, index) => [name, args[index] as string]));
  const rest = args[names.length];
  return { params, ...(operation.body ? { body: rest } : { query: rest as Record<string, unknown> | undefined }) };
}

function requestPath(operation: Operation, input: OperationInput, call: BankCallDescription): string {
  const problems: string[] = [];
  const path = operation.path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = input.params?.[name];
    if (typeof value !== "string" || value === "") problems.push(`${name}: required path parameter`);
    return encodeURIComponent(value ?? "");
  });
  let search = "";
  if (operation.query) {
    const parsed = operation.query.safeParse(input.query ?? {});
    if (!parsed.success) problems.push(...describeIssues(parsed.error, "(query)"));
    else search = queryString(parsed.data);
  }
  if (operation.body) {
    const parsed = operation.body.safeParse(input.body);
    if (!parsed.success) problems.push(...describeIssues(parsed.error));
  } else if (input.body !== undefined) {
    problems.push(`(body): ${operation.operationId} takes no body`);
  }
  if (problems.length > 0) throw new BankInvalidRequestError(call, problems);
  return search ? `${path}?${search}` : path;
}

function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  return search.toString();
}

/**
 * Checks the bank's answer against the operation's schema and returns the answer exactly as received: objects are
 * loose in the contract, so fields this console does not know yet pass through untouched, and a field of the wrong
 * type is an error naming it rather than a coerced value.
 */
function checkedAnswer(operation: Operation, body: unknown, call: BankCallDescription): unknown {
  const schema = operation.response.schema;
  if (!schema) return undefined;
  if (answerCheck(operation.operationId, schema)(body)) return body;
  // zod is the contract: it names what is wrong, and has the last word.
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new BankInvalidResponseError(call, describeIssues(parsed.error));
  return body;
}

/** Each operation's answer check, compiled on first use (lib/contract/compiled-check.ts: no copy of the answer). */
const answerChecks = new Map<string, CompiledCheck>();
function answerCheck(operationId: string, schema: z.ZodType): CompiledCheck {
  let check = answerChecks.get(operationId);
  if (!check) answerChecks.set(operationId, (check = compileCheck(schema)));
  return check;
}

/** A client of the bank at `target`: one function per operation of the contract's registry (lib/contract). */
export function createBankClient(target: BankTarget, options: Partial<TransportOptions> = {}): BankClient {
  const transport = { ...defaultTransportOptions, ...options };

  async function send(operation: Operation, path: string, body: unknown): Promise<unknown> {
    const method = operation.method.toUpperCase() as HttpMethod;
    const answer = await sendBankRequest(target, { operation: operation.operationId, method, path, body }, transport);
    return checkedAnswer(operation, answer.body, { operation: operation.operationId, method, path, attempts: answer.attempts });
  }

  async function call(operationId: OperationId, input: OperationInput = {}): Promise<unknown> {
    const operation = findOperation(operationId);
    const method = operation.method.toUpperCase();
    const path = requestPath(operation, input, { operation: operationId, method, path: operation.path, attempts: 0 });
    return send(operation, path, input.body);
  }

  async function* pages(operationId: ListOperationId, ...args: unknown[]): AsyncGenerator<Page<unknown>> {
    const operation = findOperation(operationId);
    let page = (await call(operationId, inputFromArguments(operation, args))) as Page<unknown>;
    const seen = new Set<string>();
    yield page;
    while (page.page_next) {
      if (seen.has(page.page_next)) {
        throw new BankInvalidResponseError({ operation: operationId, method: "GET", path: page.page_next, attempts: 1 }, [
          "page_next repeats a page already read",
        ]);
      }
      seen.add(page.page_next);
      page = (await send(operation, page.page_next, undefined)) as Page<unknown>;
      yield page;
    }
  }

  async function* items(operationId: ListOperationId, ...args: unknown[]): AsyncGenerator<unknown> {
    for await (const page of pages(operationId, ...args)) yield* page.data;
  }

  const functions = Object.fromEntries(
    operations.map((operation) => [
      operation.operationId,
      (...args: unknown[]) => call(operation.operationId as OperationId, inputFromArguments(operation, args)),
    ]),
  );
  const listOf = (resource: ListedResource) => `list_${resource}` as const;
  const resources: ResourceReads = {
    list: async (resource, query) => (await call(listOf(resource), { query })) as Page<ListedObject>,
    listPages: (resource, query) => pages(listOf(resource), query) as AsyncGenerator<Page<ListedObject>>,
    listPageAt: async (resource, pageNext) => (await send(findOperation(listOf(resource)), pageNext, undefined)) as Page<ListedObject>,
    get: async (resource, id) => (await call(`get_${resource}`, { params: { id } })) as ListedObject,
  };
  return { ...functions, baseUrl: target.baseUrl, call, pages, items, resources } as unknown as BankClient;
}
