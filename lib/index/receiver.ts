import { readBoundedText } from "@/lib/api/bounded-body";
import { describeIssues } from "@/lib/bank/client";
import { parseJsonText } from "@/lib/contract/json-text";
import { isEnvironment, type Environment } from "@/lib/credentials/environments";
import { bankNotification } from "./notification";
import { basicAuthorizationMatches, type ReceiverCredentials } from "./receiver-credentials";

/** Far above a notification (four short fields); a bigger body is refused unread. */
export const maxNotificationBytes = 8 * 1024;

export interface ReceiverDependencies {
  credentialsOf(environment: Environment): Promise<ReceiverCredentials | null>;
  /** Stores the notification durably; the receiver answers only after it returns. */
  store(environment: Environment, notification: ReturnType<typeof bankNotification.parse>): Promise<unknown>;
}

const answer = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

/**
 * `POST /api/bank-events/{environment}`: checks the Basic credentials (401, nothing stored), the payload (400 naming
 * the field, nothing stored), stores it and answers 200 at once: receipt only, processing comes later.
 */
export async function receiveNotification(request: Request, environment: string, dependencies: ReceiverDependencies): Promise<Response> {
  if (!isEnvironment(environment)) return answer(404, "not_found", "No such environment: expected sandbox or production.");
  if (!basicAuthorizationMatches(request.headers.get("authorization"), await dependencies.credentialsOf(environment))) {
    return answer(401, "unauthorized", "Missing or wrong receiver credentials.");
  }
  // Refused by Content-Length unread, and read with a byte cap (a chunked body declares no length).
  const read = await readBoundedText(request, maxNotificationBytes);
  if ("tooLarge" in read) return answer(413, "payload_too_large", `A notification is at most ${maxNotificationBytes / 1024} KB.`);
  const json = parseJsonText(read.text);
  if ("problem" in json) return answer(400, "invalid_json", `The body is not acceptable JSON: ${json.problem}.`);
  const parsed = bankNotification.safeParse(json.value);
  if (!parsed.success) return answer(400, "invalid_notification", `Invalid notification: ${describeIssues(parsed.error).join("; ")}`);
  await dependencies.store(environment, parsed.data);
  return Response.json({ received: true });
}
