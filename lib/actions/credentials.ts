"use server";

import { revalidatePath } from "next/cache";
import { audited, newRequestId } from "@/lib/audit";
import { requireUser } from "@/lib/auth/current-user";
import { describeConnection, encryptionKey } from "@/lib/credentials";
import { credentialsActions, type CredentialsActionState } from "@/lib/credentials/actions";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { consoleApprovals } from "@/lib/api/console-bank-proxy";

export type { CredentialsActionState } from "@/lib/credentials/actions";

// The logic, its checks and its audit records live in lib/credentials/actions.ts (tested there against a real database).
const actions = credentialsActions({
  requireUser,
  db: async () => (await consoleDb()).db,
  encryptionKey,
  describeConnection,
  audited,
  newRequestId,
  changed: () => revalidatePath("/settings/credentials"),
  allowProductionHttp: env.BANK_PRODUCTION_ALLOW_HTTP === "on",
  approvals: consoleApprovals,
});

export async function saveBankCredentials(previous: CredentialsActionState, form: FormData): Promise<CredentialsActionState> {
  return actions.saveBankCredentials(previous, form);
}

export async function clearBankCredentials(previous: CredentialsActionState, form: FormData): Promise<CredentialsActionState> {
  return actions.clearBankCredentials(previous, form);
}
