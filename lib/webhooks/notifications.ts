/**
 * A webhook's delivery attempts grouped under the notification they belong to (`notification_id`: one per event and
 * webhook, its retries and resends carry the same id), so four notifications retried five times each read as four
 * rows, not twenty. Client-safe.
 */

export interface AttemptLike {
  notification_id: string;
  attempted_at: string;
  attempt: number;
  succeeded: boolean;
}

export interface NotificationGroup<T extends AttemptLike> {
  notificationId: string;
  /** Its attempts as listed (newest first); on one page of the list, so an old notification may show only its latest. */
  attempts: T[];
  /** The newest attempt: its time, status and error describe the notification now. */
  latest: T;
  /** Whether any attempt was acknowledged (200 or 202). */
  delivered: boolean;
}

/** Groups `attempts` (newest first, as the bank lists them) by notification, the one with the newest attempt first. */
export function groupByNotification<T extends AttemptLike>(attempts: readonly T[]): Array<NotificationGroup<T>> {
  const groups = new Map<string, NotificationGroup<T>>();
  for (const attempt of attempts) {
    const group = groups.get(attempt.notification_id);
    if (group) {
      group.attempts.push(attempt);
      group.delivered ||= attempt.succeeded;
    } else {
      groups.set(attempt.notification_id, {
        notificationId: attempt.notification_id,
        attempts: [attempt],
        latest: attempt,
        delivered: attempt.succeeded,
      });
    }
  }
  return [...groups.values()];
}
