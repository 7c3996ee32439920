import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";

/** The request being served, for every line logged while serving it (`withRequestId`). */
const requestContext = new AsyncLocalStorage<string>();

/**
 * Runs `work` as part of request `requestId`: every line logged inside it, by any logger (the bank transport's, made
 * once per environment, included), names the request id.
 */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestContext.run(requestId, work);
}

/**
 * The request id for a line, unless its logger already carries one (a request's child logger): a JSON line with the
 * key twice would leave the reader to pick one. A new object each time: pino merges the line's fields into it.
 */
function requestIdField(_line: object, _level: number, logger: Logger): object {
  const requestId = requestContext.getStore();
  if (requestId === undefined) return {};
  const bindings = (logger as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym] ?? "";
  return bindings.includes('"requestId":') ? {} : { requestId };
}

/** Keys whose values never reach a log line, at any depth of a logged object (compared without case). */
const secretKeys = new Set(
  [
    "authorization",
    "cookie",
    "set-cookie",
    "password",
    "passwordHash",
    "secret",
    "keySecret",
    "apiKeySecret",
    "basic_secret",
    "token",
    "accessToken",
    "access_token",
    "refreshToken",
    "dpop",
    "encryptionKey",
  ].map((key) => key.toLowerCase()),
);

const redactedCensor = "[redacted]";

/** Deeper than anything the console logs; past it a value is replaced whole rather than walked. */
const maxCensorDepth = 8;

const isWalkable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);

/**
 * `value` with every secret key's value replaced by the censor, copied only where something is replaced. A plain walk
 * rather than pino's path-based `redact`, which cost ~85 µs per line for these keys at four depths (docs/benchmarks.md);
 * this costs a few µs and reaches every depth.
 */
function censorSecrets<T>(value: T, depth = 0): T {
  if (!isWalkable(value)) return value;
  if (depth >= maxCensorDepth) return redactedCensor as T;
  let copy: Record<string, unknown> | unknown[] | undefined;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const censored = typeof key === "string" && secretKeys.has(key.toLowerCase()) ? redactedCensor : censorSecrets(item, depth + 1);
    if (censored === item) continue;
    copy ??= Array.isArray(value) ? [...value] : { ...value };
    // Defined, not assigned: a `__proto__` key stays a key.
    Object.defineProperty(copy, key, { value: censored, enumerable: true, writable: true, configurable: true });
  }
  return (copy ?? value) as T;
}

/**
 * Standard output, one stream per process, written in batches: once `batchBytes` are pending, or after `batchMs` at
 * the latest, so a line is never held back longer than that. A write per line cost the console's proxy about 130 µs of
 * CPU per request on this VM (each write wakes another thread or process; docs/benchmarks.md). Batches are written
 * synchronously, so lines keep their order when the process exits with a batch pending (written by the exit handler
 * below): an asynchronous write still in flight at exit would land after it.
 */
const batchBytes = 4096;
const batchMs = 200;
let stdout: ReturnType<typeof pino.destination> | undefined;
function batchedStdout(): DestinationStream {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: batchBytes, periodicFlush: batchMs });
    process.once("exit", () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

/**
 * A structured JSON logger with secrets redacted, its lines labelled with the process (`service`). `destination`
 * exists for tests that read what was written;
 * the console logs to stdout, which the start command keeps in `.data/logs/`.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream; service?: "console" | "sandbox" } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: { service: options.service ?? "console" },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: requestIdField,
      formatters: { log: (object) => censorSecrets(object), bindings: (bindings) => censorSecrets(bindings) },
      // Errors are logged with their message and name; their stack stays in the log, never in a response. Serialized
      // errors are censored too (the log formatter runs before serializers, and leaves Error objects alone).
      serializers: { err: (error: Error) => censorSecrets({ ...pino.stdSerializers.err(error) }) },
    },
    options.destination ?? batchedStdout(),
  );
}

/**
 * The console's logger. Route handlers log through a child carrying the request id (`lib/api`); lines logged by other
 * loggers while a request is served get it from `withRequestId`.
 */
export const log = createLogger();
export type { Logger };
