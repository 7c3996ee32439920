"use server";

import { revalidatePath } from "next/cache";
import { audited, newRequestId } from "@/lib/audit";
import { requireUser } from "@/lib/auth/current-user";
import { firstIssue } from "@/lib/auth/staff-input";
import { describeConnection, encryptionKey, MissingEncryptionKeyError } from "@/lib/credentials";
import { isEnvironment, type Environment } from "@/lib/credentials/environments";
import { credentialsInput } from "@/lib/credentials/input";
import { deleteSavedConnection, saveConnection } from "@/lib/credentials/store";
import { consoleDb } from "@/lib/db/console";

export interface CredentialsActionState {
  error: string | null;
  done: string | null;
}

/** Audited change of one environment's credentials; before/after are summaries, so no secret reaches the audit log. */
async function credentialsChange(action: string, environment: Environment, perform: (actorEmail: string) => Promise<unknown>, done: string): Promise<CredentialsActionState> {
  const actor = await requireUser("credentials:manage");
  try {
    encryptionKey();
    const before = await describeConnection(environment);
    await audited({ actor, environment, action, targetId: environment, before, requestId: newRequestId() }, async () => {
      await perform(actor.email);
      return describeConnection(environment);
    }, { after: (summary) => summary });
  } catch (error) {
    if (error instanceof MissingEncryptionKeyError) return { error: error.message, done: null };
    throw error;
  }
  revalidatePath("/settings/credentials");
  return { error: null, done };
}

export async function saveBankCredentials(_previous: CredentialsActionState, form: FormData): Promise<CredentialsActionState> {
  const input = credentialsInput.safeParse(Object.fromEntries(form.entries()));
  if (!input.success) return { error: firstIssue(input.error), done: null };
  const connection = input.data;
  return credentialsChange(
    "credentials.save",
    connection.environment,
    async (actorEmail) => saveConnection((await consoleDb()).db, connection, encryptionKey(), actorEmail),
    `Saved the ${connection.environment} credentials`,
  );
}

export async function clearBankCredentials(_previous: CredentialsActionState, form: FormData): Promise<CredentialsActionState> {
  const environment = form.get("environment");
  if (!isEnvironment(environment)) return { error: "environment: expected sandbox or production", done: null };
  return credentialsChange(
    "credentials.clear",
    environment,
    async () => deleteSavedConnection((await consoleDb()).db, environment),
    `Removed the saved ${environment} credentials; the environment variables apply again`,
  );
}
