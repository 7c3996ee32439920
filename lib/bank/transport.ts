import http from "node:http";
import https from "node:https";
import type { Logger } from "pino";
import { recordBankCall } from "@/lib/metrics/registry";
import {
  BankInvalidResponseError,
  BankRejectedError,
  BankServerError,
  BankTimeoutError,
  BankUnreachableError,
  type BankCallDescription,
} from "./errors";

/** Where the bank is and how to authenticate; the saved `BankConnection` (lib/credentials/store.ts) has this shape. */
export interface BankTarget {
  baseUrl: string;
  auth: { type: "basic"; keyId: string; secret: string } | { type: "bearer"; token: string };
}

export interface TransportOptions {
  /** Per attempt, covering the answer's headers and its whole body. */
  timeoutMs: number;
  /** Extra attempts for reads after a network error, a timeout, 429, 502, 503 or 504. Writes never retry. */
  retries: number;
  /** Backoff before retry n is a random share (full jitter) of min(retryMaxMs, retryBaseMs * 2^n). */
  retryBaseMs: number;
  retryMaxMs: number;
  log?: Logger;
  /** Told after every attempt whether the bank answered (any HTTP status: true) or not (network failure, timeout). */
  onReached?(reached: boolean): void;
  /** An answer past this many bytes is abandoned unread (a 502); default `maxBankAnswerBytes`. */
  maxAnswerBytes?: number;
  /** Refuse an `http:` base URL: nothing, credentials least of all, is sent in clear (production, lib/bank/console-client.ts). */
  requireHttps?: boolean;
  /** The environment's circuit breaker (lib/bank/circuit.ts): each call, its retries included, runs through it. */
  circuit?: { run<T>(request: BankRequest, send: () => Promise<T>): Promise<T> };
}

/** Far above any page the contract allows (a list page of 1000 objects is a few MB); a bigger answer is not read. */
export const maxBankAnswerBytes = 16 * 1024 * 1024;

export const defaultTransportOptions: TransportOptions = { timeoutMs: 10_000, retries: 2, retryBaseMs: 200, retryMaxMs: 5_000 };

/** PUT only for the sandbox bank's snapshot restore (lib/sandbox-control): the contract has none. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface BankRequest {
  operation: string;
  method: HttpMethod;
  /** Path and query relative to the base URL, e.g. `/ach?page_size=10`, or an absolute URL on the same origin. */
  path: string;
  body?: unknown;
}

export interface BankAnswer {
  status: number;
  /** Parsed JSON, or undefined for an empty body (e.g. the simulation's 202). */
  body: unknown;
  /** How many HTTP requests it took (retries included). */
  attempts: number;
}

const retryableStatuses = new Set([429, 502, 503, 504]);
const bankMessageMaxLength = 500;

export function authorizationHeader(auth: BankTarget["auth"]): string {
  if (auth.type === "bearer") return `Bearer ${auth.token}`;
  return `Basic ${Buffer.from(`${auth.keyId}:${auth.secret}`).toString("base64")}`;
}

/** A bank's base URL as a URL that relative paths resolve under (`https://bank/v1` and `https://bank/v1/` alike). */
export function bankBaseUrl(baseUrl: string): URL {
  return new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

/**
 * Resolves `path` against the base URL and refuses any URL on another origin: the bank's credentials go to the bank
 * only, even when a `page_next` it returned points elsewhere.
 */
export function bankUrl(target: BankTarget, path: string, call: BankCallDescription): URL {
  const base = bankBaseUrl(target.baseUrl);
  const url = new URL(path.startsWith("/") ? path.slice(1) : path, base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw new BankInvalidResponseError(call, [`refusing to send credentials to ${url.origin}${url.pathname}, outside ${base.href}`]);
  }
  return url;
}

interface Answer {
  status: number;
  statusText: string;
  retryAfter: string | null;
  text: string;
}

type Attempt = { answer: Answer } | { failure: "network"; cause: unknown } | { failure: "timeout" } | { failure: "too_large" };

/**
 * Connections to the bank are kept open between reads: a read costs one request on a warm connection. Node's own
 * HTTP client rather than fetch, which in a Next.js route is wrapped for its data cache (new Request objects, cache
 * checks, tracing) and streams every body through WHATWG streams: about half the CPU per call (docs/benchmarks.md).
 */
const keptAlive = {
  "http:": new http.Agent({ keepAlive: true, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, scheduling: "lifo" }),
};

function attempt(url: URL, request: BankRequest, target: BankTarget, timeoutMs: number, maxBytes: number): Promise<Attempt> {
  const headers: Record<string, string> = { authorization: authorizationHeader(target.auth), accept: "application/json" };
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  const client = url.protocol === "https:" ? https : http;
  // A change goes out on a connection of its own: it is never retried, so it must not meet a kept-alive connection
  // the bank is closing at that moment. Reads, retried after a network error, reuse connections.
  const agent = request.method === "GET" ? keptAlive[url.protocol as keyof typeof keptAlive] : false;
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    // The answer's headers and its whole body must arrive within the timeout.
    const timer = setTimeout(() => {
      settle({ failure: "timeout" });
      outgoing?.destroy();
    }, timeoutMs);
    const settle = (result: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    try {
      // A redirect is answered, never followed.
      outgoing = client.request(url, { method: request.method, headers, agent }, (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        // Refused by its declared length unread, else read up to the cap and abandoned there (the socket destroyed).
        const tooLarge = () => {
          settle({ failure: "too_large" });
          incoming.destroy();
          outgoing?.destroy();
        };
        if (Number(incoming.headers["content-length"] ?? 0) > maxBytes) return tooLarge();
        incoming.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return tooLarge();
          chunks.push(chunk);
        });
        incoming.on("error", (cause) => settle({ failure: "network", cause }));
        incoming.on("end", () => {
          const retryAfter = incoming.headers["retry-after"];
          settle({
            answer: {
              status: incoming.statusCode ?? 0,
              statusText: incoming.statusMessage ?? "",
              retryAfter: typeof retryAfter === "string" ? retryAfter : null,
              text: Buffer.concat(chunks).toString("utf8"),
            },
          });
        });
      });
    } catch (cause) {
      // Refused before anything is sent, e.g. a saved token holding a character no header may carry.
      settle({ failure: "network", cause });
      return;
    }
    outgoing.on("error", (cause) => settle({ failure: "network", cause }));
    outgoing.end(body);
  });
}

/**
 * The bank's explanation of a refusal: the contract's `{"error": "..."}` message, or for any other body a neutral
 * `HTTP <status> <status text>` with the body itself kept apart (`uncontracted`), which only admins are shown: a base
 * URL pointing at some other service must not turn its replies into something every role can read.
 */
function bankMessage(status: number, statusText: string, text: string): { message: string; uncontracted?: string } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string") {
      return { message: parsed.error.slice(0, bankMessageMaxLength) };
    }
  } catch {
    // not JSON: outside the contract
  }
  const message = `HTTP ${status}${statusText ? ` ${statusText}` : ""}`;
  return text.trim() ? { message, uncontracted: text.trim().slice(0, bankMessageMaxLength) } : { message };
}

/** The wait before retry `retry` (0-based): the bank's Retry-After in seconds when given (capped), else full jitter. */
export function backoffMs(retry: number, options: TransportOptions, retryAfter: string | null): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, options.retryMaxMs);
  return Math.random() * Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** retry);
}

/** A `Retry-After` of whole seconds (the form the contract's banks send), else undefined: an HTTP date is not passed on. */
function retryAfterSeconds(retryAfter: string | null): number | undefined {
  return retryAfter !== null && /^\d{1,9}$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one logical request to the bank and returns its 2xx answer, or throws a `BankError`. Reads (GET) are retried
 * with backoff and jitter after network errors, timeouts, 429, 502, 503 and 504; anything else is sent exactly once.
 */
export async function sendBankRequest(target: BankTarget, request: BankRequest, options: TransportOptions): Promise<BankAnswer> {
  if (options.circuit) {
    const { circuit, ...withoutCircuit } = options;
    return circuit.run(request, () => sendBankRequest(target, request, withoutCircuit));
  }
  const call: BankCallDescription = { operation: request.operation, method: request.method, path: request.path, attempts: 0 };
  const url = bankUrl(target, request.path, call);
  if (options.requireHttps && url.protocol !== "https:") {
    throw new BankUnreachableError(
      { ...call },
      `refusing to call ${url.origin} over ${url.protocol.slice(0, -1)}: this environment's bank must be reached over https`,
    );
  }
  const maxAnswerBytes = options.maxAnswerBytes ?? maxBankAnswerBytes;
  // Recorded once per call at each exit below (console_bank_requests_total): a number, not a timer object, per call.
  const started = performance.now();
  const maxAttempts = request.method === "GET" ? options.retries + 1 : 1;

  for (;;) {
    call.attempts += 1;
    const result = await attempt(url, request, target, options.timeoutMs, maxAnswerBytes);
    if ("failure" in result && result.failure === "too_large") {
      options.onReached?.(true);
      recordBankCall(request.operation, "too_large", started);
      throw new BankInvalidResponseError({ ...call }, [`the answer is larger than ${formatBytes(maxAnswerBytes)}; it was not read`]);
    }
    options.onReached?.(!("failure" in result));
    const transientReason = "failure" in result ? result.failure : retryableStatuses.has(result.answer.status) ? result.answer.status : null;
    if (transientReason !== null && call.attempts < maxAttempts) {
      const delay = backoffMs(call.attempts - 1, options, "answer" in result ? result.answer.retryAfter : null);
      options.log?.warn(
        { operation: call.operation, attempt: call.attempts, reason: transientReason, retryInMs: Math.round(delay) },
        "bank call failed; retrying",
      );
      await sleep(delay);
      continue;
    }
    if ("failure" in result) {
      recordBankCall(request.operation, result.failure === "timeout" ? "timeout" : "unreachable", started);
      if (result.failure === "timeout") throw new BankTimeoutError({ ...call }, options.timeoutMs);
      throw new BankUnreachableError({ ...call }, describeNetworkFailure(result.cause), { cause: result.cause });
    }
    const { answer } = result;
    recordBankCall(request.operation, answer.status, started);
    if (answer.status >= 200 && answer.status < 300) return { status: answer.status, body: parseJson(answer.text, call), attempts: call.attempts };
    const { message, uncontracted } = bankMessage(answer.status, answer.statusText, answer.text);
    const retryAfter = retryAfterSeconds(answer.retryAfter);
    if (answer.status >= 400 && answer.status < 500) throw new BankRejectedError({ ...call }, answer.status, message, uncontracted, retryAfter);
    if (answer.status >= 500) throw new BankServerError({ ...call }, answer.status, message, uncontracted, retryAfter);
    throw new BankInvalidResponseError({ ...call }, [`unexpected HTTP status ${answer.status}`]);
  }
}

const formatBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`);

function parseJson(text: string, call: BankCallDescription): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BankInvalidResponseError({ ...call }, [`the body is not valid JSON (starts with ${JSON.stringify(text.slice(0, 40))})`]);
  }
}

/** What failed on the network, with its code (ECONNREFUSED, ECONNRESET) when there is one. */
function describeNetworkFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause && typeof cause === "object" && "code" in cause ? String(cause.code) : undefined;
  const message = cause instanceof Error ? cause.message : String(cause);
  return `the bank could not be reached (${code ? `${code}: ` : ""}${message})`;
}
