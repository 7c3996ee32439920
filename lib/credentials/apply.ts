import type { HeldCredentialsChange } from "@/lib/approvals/service";
import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { ConsoleDb } from "@/lib/db/console-db";
import type { Environment } from "./environments";
import { deleteSavedConnection, saveConnection, type ConnectionSummary } from "./store";

export interface ApplyCredentialsDependencies {
  db(): Promise<ConsoleDb>;
  encryptionKey(): Buffer;
  describeConnection(environment: Environment): Promise<ConnectionSummary>;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
}

/**
 * An approved change of bank credentials (docs/approvals.md), applied as the approver: audited under the action the
 * maker asked for (`credentials.save` / `credentials.clear`) with summaries as before and after, never a secret. The
 * saved row names both people in `updated_by`.
 */
export async function applyCredentialsChange(
  dependencies: ApplyCredentialsDependencies,
  change: HeldCredentialsChange,
  approver: StaffUser,
  makerEmail: string,
  requestId: string,
): Promise<ConnectionSummary> {
  const { environment } = change;
  const before = await dependencies.describeConnection(environment);
  return dependencies.audited(
    {
      actor: { id: approver.id, email: approver.email, role: approver.role },
      environment,
      action: change.action,
      targetId: environment,
      before,
      requestId,
    },
    async () => {
      const db = await dependencies.db();
      if (change.action === "credentials.clear") await deleteSavedConnection(db, environment);
      else
        await saveConnection(
          db,
          { environment, baseUrl: change.baseUrl, auth: change.auth },
          dependencies.encryptionKey(),
          `${makerEmail} (approved by ${approver.email})`,
        );
      return dependencies.describeConnection(environment);
    },
    { after: (summary) => summary },
  );
}
