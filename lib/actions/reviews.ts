"use server";

import { revalidatePath } from "next/cache";
import { audited, newRequestId } from "@/lib/audit";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { reviewActions, type ReviewActionState } from "@/lib/reviews/actions";

// The logic, its checks and its audit records live in lib/reviews/actions.ts (tested there against a real database).
const actions = reviewActions({
  requireUser,
  db: async () => (await consoleDb()).db,
  environment: getActiveEnvironment,
  audited,
  newRequestId,
  changed: (applicationId) => {
    revalidatePath("/reviews");
    revalidatePath(`/applications/person/${applicationId}`);
    revalidatePath(`/applications/business/${applicationId}`);
  },
});

export async function assignReview(previous: ReviewActionState, form: FormData): Promise<ReviewActionState> {
  return actions.assign(previous, form);
}

export async function unassignReview(previous: ReviewActionState, form: FormData): Promise<ReviewActionState> {
  return actions.unassign(previous, form);
}

export async function markReviewItem(previous: ReviewActionState, form: FormData): Promise<ReviewActionState> {
  return actions.markItem(previous, form);
}

export async function addReviewNote(previous: ReviewActionState, form: FormData): Promise<ReviewActionState> {
  return actions.addNote(previous, form);
}

export async function proposeReviewDecision(previous: ReviewActionState, form: FormData): Promise<ReviewActionState> {
  return actions.propose(previous, form);
}

export async function resolveReviewDecision(previous: ReviewActionState, form: FormData): Promise<ReviewActionState> {
  return actions.resolve(previous, form);
}
