import { describe, expect, it } from "vitest";
import { groupByNotification } from "./notifications";

const attempt = (notification: string, n: number, succeeded = false) => ({
  id: `whd_${notification}_${n}`,
  notification_id: notification,
  attempted_at: `2026-11-28T10:00:${String(n).padStart(2, "0")}Z`,
  attempt: n,
  succeeded,
});

describe("attempts grouped under their notification", () => {
  it("four notifications tried five times each read as four groups of five, the one with the newest attempt first", () => {
    const attempts = [1, 2, 3, 4, 5].flatMap((n) => ["dlv_a", "dlv_b", "dlv_c", "dlv_d"].map((id) => attempt(id, n))).reverse();
    const groups = groupByNotification(attempts);
    expect(groups.map((group) => group.notificationId)).toEqual(["dlv_d", "dlv_c", "dlv_b", "dlv_a"]);
    expect(groups.map((group) => group.attempts.map((row) => row.attempt))).toEqual(Array(4).fill([5, 4, 3, 2, 1]));
  });

  it("the latest attempt describes the notification, and it counts as delivered once any attempt was acknowledged", () => {
    const [group] = groupByNotification([attempt("dlv_a", 3, false), attempt("dlv_a", 2, true), attempt("dlv_a", 1, false)]);
    expect(group!.latest.attempt).toBe(3);
    expect(group!.delivered).toBe(true);
    expect(groupByNotification([attempt("dlv_b", 1)])[0]!.delivered).toBe(false);
  });

  it("no attempts, no groups", () => {
    expect(groupByNotification([])).toEqual([]);
  });
});
