"use server";

import { revalidatePath } from "next/cache";
import { audited, newRequestId } from "@/lib/audit";
import { requireUser } from "@/lib/auth/current-user";
import { consoleBankClient } from "@/lib/bank/console-client";
import { consoleDb } from "@/lib/db/console";
import { indexActions, type IndexActionState } from "@/lib/index/actions";
import { rotateReceiver, setUpSubscriptions, startBackfill } from "@/lib/index/runtime";

// The logic, its checks and its audit records live in lib/index/actions.ts (tested there against a real database).
const actions = indexActions({
  requireUser,
  db: async () => (await consoleDb()).db,
  clientFor: consoleBankClient,
  setUpSubscriptions,
  rotateReceiver,
  startBackfill,
  audited,
  newRequestId,
  changed: () => revalidatePath("/settings/index"),
});

export async function rotateReceiverSecret(previous: IndexActionState, form: FormData): Promise<IndexActionState> {
  return actions.rotateReceiverSecret(previous, form);
}

export async function setUpIndexSubscriptions(previous: IndexActionState, form: FormData): Promise<IndexActionState> {
  return actions.setUpSubscriptions(previous, form);
}

export async function resetIndexSubscription(previous: IndexActionState, form: FormData): Promise<IndexActionState> {
  return actions.resetSubscription(previous, form);
}

export async function startIndexBackfill(previous: IndexActionState, form: FormData): Promise<IndexActionState> {
  return actions.startBackfill(previous, form);
}

export async function purgeIndex(previous: IndexActionState, form: FormData): Promise<IndexActionState> {
  return actions.purgeIndex(previous, form);
}
