import pino, { type DestinationStream, type Logger } from "pino";

/**
 * Keys whose values never reach a log line, wherever they sit in the first levels of a logged object. pino's
 * redaction works on explicit paths (no deep wildcard), so each key is listed at the top level and up to three levels
 * down; the console never logs objects nested deeper than that.
 */
const secretKeys = [
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
];

const bracket = (key: string) => `["${key}"]`;

export const redactedPaths = secretKeys.flatMap((key) => [
  bracket(key),
  `*${bracket(key)}`,
  `*.*${bracket(key)}`,
  `*.*.*${bracket(key)}`,
]);

export const redactedCensor = "[redacted]";

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
      redact: { paths: redactedPaths, censor: redactedCensor },
      // Errors are logged with their message and name; their stack stays in the log, never in a response.
      serializers: { err: pino.stdSerializers.err },
    },
    options.destination,
  );
}

/** The console's logger. Route handlers log through a child carrying the request id (`lib/api`). */
export const log = createLogger();
export type { Logger };
