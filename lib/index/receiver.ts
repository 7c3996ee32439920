import { readBoundedText } from "@/lib/api/bounded-body";
import { consumeRateLimit } from "@/lib/api/rate-limit";
import { describeIssues } from "@/lib/bank/client";
import { parseJsonText } from "@/lib/contract/json-text";
import { isEnvironment, type Environment } from "@/lib/credentials/environments";
import { InboxFullError } from "./inbox";
import { bankNotification } from "./notification";
import { basicAuthorizationMatches, type ReceiverCredentials } from "./receiver-credentials";

/** Far above a notification (four short fields); a bigger body is refused unread. */
export const maxNotificationBytes = 8 * 1024;

export interface ReceiverDependencies {
  credentialsOf(environment: Environment): Promise<ReceiverCredentials | null>;
  /** Stores the notification durably; the receiver answers only after it returns. InboxFullError: past the cap, not stored. */
  store(environment: Environment, notification: ReturnType<typeof bankNotification.parse>): Promise<unknown>;
}

/** How long a bank is asked to wait when the inbox is full: the worker's rounds drain it meanwhile. */
export const inboxFullRetryAfterSeconds = 30;

const answer = (status: number, code: string, message: string, headers?: HeadersInit) =>
  Response.json({ error: { code, message } }, { status, headers });

/**
 * "Not now, send it again later": 503 with `Retry-After`. The bank counts only 200 and 202 as delivered and retries
 * anything else (spec, Events; the sandbox's delivery worker); a 503 is the answer every sender reads as temporary,
 * where some treat a 4xx as final.
 */
const later = (code: string, message: string, retryAfterSeconds: number) =>
  answer(503, code, `${message} Send it again in ${retryAfterSeconds} s.`, { "Retry-After": String(retryAfterSeconds) });

/**
 * `POST /api/bank-events/{environment}`: checks the Basic credentials (401, nothing stored), the environment's rate
 * limit (503, nothing read), the payload (400 naming the field, nothing stored), stores it within the inbox's cap on
 * waiting notifications (503 past it, nothing stored) and answers 200 at once: receipt only, processing comes later.
 */
export async function receiveNotification(request: Request, environment: string, dependencies: ReceiverDependencies): Promise<Response> {
  if (!isEnvironment(environment)) return answer(404, "not_found", "No such environment: expected sandbox or production.");
  if (!basicAuthorizationMatches(request.headers.get("authorization"), await dependencies.credentialsOf(environment))) {
    return answer(401, "unauthorized", "Missing or wrong receiver credentials.");
  }
  // After the credentials: forged posts cannot spend the bank's allowance. Per environment, as each has its own bank.
  const limit = await consumeRateLimit("receiver", environment);
  if (!limit.allowed) return later("rate_limited", "Too many notifications.", limit.retryAfterSeconds);
  // Refused by Content-Length unread, and read with a byte cap (a chunked body declares no length).
  const read = await readBoundedText(request, maxNotificationBytes);
  if ("tooLarge" in read) return answer(413, "payload_too_large", `A notification is at most ${maxNotificationBytes / 1024} KB.`);
  const json = parseJsonText(read.text);
  if ("problem" in json) return answer(400, "invalid_json", `The body is not acceptable JSON: ${json.problem}.`);
  const parsed = bankNotification.safeParse(json.value);
  if (!parsed.success) return answer(400, "invalid_notification", `Invalid notification: ${describeIssues(parsed.error).join("; ")}`);
  try {
    await dependencies.store(environment, parsed.data);
  } catch (error) {
    if (error instanceof InboxFullError) return later("inbox_full", error.message, inboxFullRetryAfterSeconds);
    throw error;
  }
  return Response.json({ received: true });
}
