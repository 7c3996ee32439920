"use client";

import { Button } from "@/components/ui/button";
import { assignReview, unassignReview } from "@/lib/actions/reviews";
import { ReviewForm } from "./review-form";

/** "Assign to me" on an unassigned case, "Unassign" on one's own (or, for an admin, anyone's). */
export function AssignControls({
  applicationId,
  assigneeId,
  assigneeEmail,
  userId,
  canUnassignAnyone,
}: {
  applicationId: string;
  assigneeId: string | null;
  assigneeEmail: string | null;
  userId: string;
  canUnassignAnyone: boolean;
}) {
  if (assigneeId === null) {
    return (
      <ReviewForm action={assignReview} hidden={{ applicationId }} className="flex flex-wrap items-center gap-2">
        {(pending) => (
          <Button type="submit" size="compact" disabled={pending}>
            Assign to me
          </Button>
        )}
      </ReviewForm>
    );
  }
  if (assigneeId !== userId && !canUnassignAnyone) return <span className="text-xs text-muted">Worked by {assigneeEmail}</span>;
  return (
    <ReviewForm action={unassignReview} hidden={{ applicationId }} className="flex flex-wrap items-center gap-2">
      {(pending) => (
        <Button type="submit" size="compact" variant="secondary" disabled={pending}>
          {assigneeId === userId ? "Unassign" : `Unassign ${assigneeEmail}`}
        </Button>
      )}
    </ReviewForm>
  );
}
