import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { ApprovalAnswer } from "@/lib/approvals/codes";
import type { HeldCredentialsChange } from "@/lib/approvals/service";
import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { firstIssue } from "@/lib/auth/staff-input";
import * as schema from "@/lib/db/console-schema";
import type { Permission } from "@/lib/permissions";
import { isEnvironment, type Environment } from "./environments";
import { credentialsInput } from "./input";
import { MissingEncryptionKeyError } from "./seal";
import { deleteSavedConnection, saveConnection, type ConnectionSummary } from "./store";

export interface CredentialsActionState {
  error: string | null;
  done: string | null;
  /** Set when four-eyes holds the change for a second admin's approval (docs/approvals.md): nothing was saved yet. */
  approval?: { id: number; url: string } | null;
}

/** What the credentials actions need from the console; lib/actions/credentials.ts wires the real ones. */
export interface CredentialsActionDependencies {
  /** The signed-in user holding `permission`; otherwise it does not return (redirect to sign-in, or 403). */
  requireUser(permission: Permission): Promise<StaffUser>;
  db(): Promise<NodePgDatabase<typeof schema>>;
  /** Throws MissingEncryptionKeyError when no key is configured. */
  encryptionKey(): Buffer;
  /** Where an environment's credentials come from, without secrets (the audit's before and after). */
  describeConnection(environment: Environment): Promise<ConnectionSummary>;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  newRequestId(): string;
  /** Called after a change, so the settings page shows it. */
  changed(): void;
  /** BANK_PRODUCTION_ALLOW_HTTP=on: a production base URL may be http (local testing); otherwise https only. */
  allowProductionHttp?: boolean;
  /** Four-eyes on changes (lib/approvals): where required, a change becomes a request another admin approves. */
  approvals?: {
    required(environment: Environment): Promise<boolean>;
    holdCredentials(maker: StaffUser, requestId: string, change: HeldCredentialsChange): Promise<ApprovalAnswer>;
  };
}

/** The admin's changes of bank credentials (server actions), each checked, validated and audited. */
export function credentialsActions(dependencies: CredentialsActionDependencies) {
  /** Audited change of one environment's credentials; before/after are summaries, so no secret reaches the audit log. */
  async function credentialsChange(
    held: HeldCredentialsChange,
    perform: (actorEmail: string) => Promise<unknown>,
    done: string,
  ): Promise<CredentialsActionState> {
    const { action, environment } = held;
    const actor = await dependencies.requireUser("credentials:manage");
    try {
      dependencies.encryptionKey();
      if (dependencies.approvals && (await dependencies.approvals.required(environment))) {
        const { approval } = await dependencies.approvals.holdCredentials(actor, dependencies.newRequestId(), held);
        dependencies.changed();
        return {
          error: null,
          done: `Awaiting approval: another admin must approve this change of the ${environment} credentials (request ${approval.id})`,
          approval: { id: approval.id, url: approval.url },
        };
      }
      const before = await dependencies.describeConnection(environment);
      const entry = { actor, environment, action, targetId: environment, before, requestId: dependencies.newRequestId() };
      await dependencies.audited(
        entry,
        async () => {
          await perform(actor.email);
          return dependencies.describeConnection(environment);
        },
        { after: (summary) => summary },
      );
    } catch (error) {
      if (error instanceof MissingEncryptionKeyError) return { error: error.message, done: null };
      throw error;
    }
    dependencies.changed();
    return { error: null, done };
  }

  return {
    async saveBankCredentials(_previous: CredentialsActionState, form: FormData): Promise<CredentialsActionState> {
      const input = credentialsInput.safeParse(Object.fromEntries(form.entries()));
      if (!input.success) return { error: firstIssue(input.error), done: null };
      const connection = input.data;
      if (connection.environment === "production" && !dependencies.allowProductionHttp && !connection.baseUrl.toLowerCase().startsWith("https:")) {
        return {
          error: "baseUrl: the production bank is reached over https only (BANK_PRODUCTION_ALLOW_HTTP=on allows http for local testing)",
          done: null,
        };
      }
      return credentialsChange(
        { action: "credentials.save", environment: connection.environment, baseUrl: connection.baseUrl, auth: connection.auth },
        async (actorEmail) => saveConnection(await dependencies.db(), connection, dependencies.encryptionKey(), actorEmail),
        `Saved the ${connection.environment} credentials`,
      );
    },

    async clearBankCredentials(_previous: CredentialsActionState, form: FormData): Promise<CredentialsActionState> {
      const environment = form.get("environment");
      if (!isEnvironment(environment)) return { error: "environment: expected sandbox or production", done: null };
      return credentialsChange(
        { action: "credentials.clear", environment },
        async () => deleteSavedConnection(await dependencies.db(), environment),
        `Removed the saved ${environment} credentials; the environment variables apply again`,
      );
    },
  };
}
