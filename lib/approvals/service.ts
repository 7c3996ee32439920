import { isDeepStrictEqual } from "node:util";
import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff, findStaffById, updateStaff } from "@/lib/auth/staff-users";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { can, type Permission, type Role } from "@/lib/permissions";
import {
  credentialsBody,
  credentialsChange,
  type BankChangeAt,
  type HeldBankChange,
  type HeldCredentialsChange,
  type HeldStaffChange,
} from "./held-changes";
import { sealPayload, unsealPayload } from "./sealed-payload";
import { approvalUrl, staffChangesEnvironment, switchingOffNeedsApproval, type ApprovalAnswer } from "./codes";
import {
  ApprovalRefusal,
  approvalRequired,
  assertDecidable,
  createChangeRequest,
  decideChangeRequest,
  readChangeRequest,
  recordOutcome,
  setApprovalRequired,
  viewOf,
  type ChangeRequestRow,
  type ChangeRequestView,
  type Person,
} from "./store";

/** The held changes' shapes: re-exported for the proxy, the credentials and the staff actions that hold them. */
export type { HeldBankChange, HeldCredentialsChange, HeldStaffChange };

/** What the approvals need from the console; lib/api/console-bank-proxy.ts wires the real ones. */
export interface ApprovalDependencies {
  db(): Promise<ConsoleDb>;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  recordAuditEvent(entry: AuditEntry & { after?: unknown }): Promise<void>;
  /** How long a request may wait for approval (APPROVAL_EXPIRY_HOURS). */
  expiryMs(): number;
  /** Seals a held change's secrets; throws MissingEncryptionKeyError when no key is configured. */
  encryptionKey(): Buffer;
  /** Sends an approved bank change through the proxy's own path (permission, validation, audit, masking) as `approver`. */
  sendBank(change: BankChangeAt, approver: StaffUser, requestId: string): Promise<unknown>;
  /** What a held bank change would replace at the bank now, cut as its `before` was; undefined when it replaces nothing (a creation). */
  bankBefore(change: BankChangeAt): Promise<unknown>;
  /** Applies an approved credentials change as `approver` (audited like the direct action), on behalf of `makerEmail`. */
  applyCredentials(change: HeldCredentialsChange, approver: StaffUser, makerEmail: string, requestId: string): Promise<unknown>;
  /** The current connection of an environment, without secrets (what a credentials request replaces). */
  describeConnection(environment: Environment): Promise<unknown>;
  /** Starts an approved bulk action (lib/bulk), whose rows are then sent as `approver`, each audited as a single change. */
  startBulk?(jobId: string, approver: StaffUser): Promise<unknown>;
}

const person = (user: StaffUser): Person => ({ id: user.id, email: user.email, role: user.role });
const actor = (user: StaffUser) => ({ id: user.id, email: user.email, role: user.role });

/**
 * Four-eyes on changes (docs/approvals.md). `required(environment)` says whether changes there wait; `holdBank` and
 * `holdCredentials` turn a change into a pending request (audited as `change.request`); `approve` claims a pending
 * request once and sends it (audited as `change.approve`, then the change's own record by the approver), `reject` and
 * `withdraw` close one. Every refusal is an ApprovalRefusal with a 4xx status.
 */
export function approvalService(dependencies: ApprovalDependencies) {
  async function hold(
    maker: StaffUser,
    requestId: string,
    change: Omit<Parameters<typeof createChangeRequest>[1], "maker" | "requestId" | "expiresAt" | "sealedSecrets" | "payload"> & { body: unknown },
  ): Promise<ApprovalAnswer> {
    const db = await dependencies.db();
    const { stored, sealedSecrets } = sealPayload(change.body, change.environment, () => dependencies.encryptionKey());
    const row = await dependencies.audited(
      { actor: actor(maker), environment: change.environment, action: "change.request", targetId: change.targetId, before: null, requestId },
      async () => {
        const { environment, kind, action, permission, targetId, operationId, method, path, params, before } = change;
        return createChangeRequest(db, {
          ...{ environment, kind, action, permission, targetId, operationId, method, path, params, before },
          payload: stored,
          sealedSecrets,
          maker: person(maker),
          requestId,
          expiresAt: new Date(Date.now() + dependencies.expiryMs()),
        });
      },
      { after: (created) => ({ approval: created.id, action: created.action, expiresAt: created.expiresAt.toISOString() }) },
    );
    return { approval: { id: row.id, status: "pending", expiresAt: row.expiresAt.toISOString(), url: approvalUrl(row.id) } };
  }

  const fullPayload = (row: ChangeRequestRow) => unsealPayload(row, () => dependencies.encryptionKey());

  async function applySetting(user: StaffUser, environment: Environment, required: boolean, updatedBy: string, requestId: string) {
    const db = await dependencies.db();
    const before = await approvalRequired(db, environment);
    await dependencies.audited(
      { actor: actor(user), environment, action: "approvals.setting", targetId: environment, before: { required: before }, requestId },
      () => setApprovalRequired(db, environment, required, updatedBy),
      { after: () => ({ required }) },
    );
    return { environment, required };
  }

  async function decided(user: StaffUser, id: number, decision: "approve" | "reject" | "withdraw", note: string | null, requestId: string) {
    const db = await dependencies.db();
    const row = await readChangeRequest(db, id);
    if (!row) throw new ApprovalRefusal(404, "not_found", `no change request ${id}`);
    if (decision !== "withdraw" && !can(user.role, row.permission as Permission))
      throw new ApprovalRefusal(403, "forbidden", `approving this change needs ${row.permission}, which your role does not hold`);
    const entry = {
      actor: actor(user),
      environment: row.environment,
      action: `change.${decision}`,
      targetId: row.targetId,
      before: {
        approval: row.id,
        action: row.action,
        requestedBy: { id: row.makerId, email: row.makerEmail, role: row.makerRole },
        requestedAt: row.requestedAt.toISOString(),
      },
      requestId,
    };
    // Audited like every change: a refusal (self-approval, expired, already decided, changed since) is a failed record naming why.
    return dependencies.audited(
      entry,
      async () => {
        if (decision === "approve") {
          // Refusals first, so that nothing is read at the bank for someone who may not approve.
          await assertDecidable(db, row, person(user), decision);
          try {
            await refuseStale(row);
          } catch (error) {
            // Another approver may have claimed and sent this very change meanwhile, which is what changed the object:
            // then "already approved" is the answer, not "changed since the request".
            const now = await readChangeRequest(db, id);
            if (now) await assertDecidable(db, now, person(user), decision);
            throw error;
          }
        }
        return decideChangeRequest(db, id, person(user), decision, note);
      },
      { after: (row) => ({ state: row.state, note: row.decisionNote }) },
    );
  }

  /** The request's change as it will be sent: its bank operation with the maker's body (none for a delete). */
  const bankChangeOf = (row: ChangeRequestRow): BankChangeAt => ({
    environment: row.environment,
    operationId: row.operationId!,
    params: (row.params ?? {}) as Record<string, string>,
    body: row.method === "DELETE" ? undefined : fullPayload(row),
  });

  /** What the request's change replaces now, in the shape of its `before`; undefined where it replaces nothing (a creation). */
  async function beforeNow(row: ChangeRequestRow): Promise<unknown> {
    // A bulk action compares each object with what it was asked against just before sending it (lib/bulk): a row
    // changed meanwhile is skipped, not the whole set refused.
    if (row.kind === "bulk") return undefined;
    if (row.kind === "bank") return dependencies.bankBefore(bankChangeOf(row));
    if (row.kind === "credentials") return dependencies.describeConnection(row.environment);
    if (row.kind === "setting") return { required: await approvalRequired(await dependencies.db(), row.environment) };
    if (row.action !== "staff.role_change") return undefined;
    const user = await findStaffById(await dependencies.db(), row.targetId!);
    return user && { email: user.email, role: user.role };
  }

  /**
   * Refuses (409) approving a change whose object changed since the request: the approver saw the `before` of then, and
   * sending it now would overwrite what someone changed meanwhile. The maker asks again, against what is there now.
   */
  async function refuseStale(row: ChangeRequestRow): Promise<void> {
    const now = await beforeNow(row);
    if (now === undefined) return;
    const asJson = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown;
    if (isDeepStrictEqual(asJson(now), asJson(row.before))) return;
    throw new ApprovalRefusal(
      409,
      "approval_stale",
      `request ${row.id}: ${row.targetId ?? "the object"} changed since the request (it was ${JSON.stringify(row.before)}, it is ${JSON.stringify(asJson(now))}); approving it would overwrite that. It must be asked again: reject it, and the maker asks for the change anew`,
    );
  }

  /** Applies an approved staff change as `approver`, audited like the direct action; the maker is recorded as who asked. */
  async function applyStaff(row: ChangeRequestRow, approver: StaffUser, requestId: string): Promise<StaffUser | null> {
    const db = await dependencies.db();
    const payload = fullPayload(row);
    const entry = { actor: actor(approver), environment: null, action: row.action, targetId: row.targetId, requestId };
    const role = payload.role as Role;
    if (row.action === "staff.create") {
      const user = { id: row.targetId!, email: String(payload.email), name: String(payload.name), role };
      const password = typeof payload.password === "string" ? payload.password : null;
      return dependencies.audited({ ...entry, before: null }, () => createStaff(db, { ...user, password, createdBy: row.makerId }), {
        after: (created) => created,
      });
    }
    const before = await findStaffById(db, row.targetId!);
    return dependencies.audited(
      { ...entry, before },
      async () => (await updateStaff(db, row.targetId!, { role, roleChangedBy: row.makerId }))?.after ?? null,
      { after: (after) => after },
    );
  }

  async function startBulk(row: ChangeRequestRow, approver: StaffUser): Promise<unknown> {
    if (!dependencies.startBulk) throw new ApprovalRefusal(400, "invalid_input", "this console does not run bulk actions");
    return dependencies.startBulk(row.targetId!, approver);
  }

  return {
    async required(environment: Environment): Promise<boolean> {
      return approvalRequired(await dependencies.db(), environment);
    },

    /**
     * Switches four-eyes for an environment. Switching it off where it is on in production is held like any change,
     * for a second admin (an ApprovalAnswer); anything else applies at once (`{environment, required}`).
     */
    async setRequired(user: StaffUser, environment: Environment, required: boolean, requestId: string): Promise<SettingAnswer> {
      const db = await dependencies.db();
      const before = await approvalRequired(db, environment);
      if (before && !required && switchingOffNeedsApproval[environment]) {
        return hold(user, requestId, {
          ...{ environment, kind: "setting", action: "approvals.setting", permission: "approvals:configure", targetId: environment },
          body: { required: false },
          before: { required: true },
        });
      }
      return applySetting(user, environment, required, user.email, requestId);
    },

    /** Holds a staff change for another admin; staff accounts follow production's setting (`staffChangesEnvironment`). */
    holdStaff(maker: StaffUser, requestId: string, change: HeldStaffChange): Promise<ApprovalAnswer> {
      const { user } = change;
      const common = { environment: staffChangesEnvironment, kind: "staff" as const, action: change.action, permission: "staff:manage" as const };
      return change.action === "staff.create"
        ? hold(maker, requestId, { ...common, targetId: user.id, body: { ...user, password: change.password }, before: null })
        : hold(maker, requestId, {
            ...common,
            targetId: user.id,
            body: { email: user.email, role: change.role },
            before: { email: user.email, role: user.role },
          });
    },

    holdBank(maker: StaffUser, requestId: string, change: HeldBankChange): Promise<ApprovalAnswer> {
      const { environment, action, permission, operationId, method, path, params, targetId, body, before } = change;
      return hold(maker, requestId, { environment, kind: "bank", action, permission, operationId, method, path, params, targetId, body, before });
    },

    /** Holds a bulk action (lib/bulk) as one request for the whole set: `before` lists every object as it was asked against. */
    holdBulk(
      maker: StaffUser,
      requestId: string,
      change: { environment: Environment; action: string; permission: Permission; jobId: string; body: unknown; before: unknown },
    ) {
      const { environment, action, permission, jobId, body, before } = change;
      return hold(maker, requestId, { environment, kind: "bulk", action, permission, targetId: jobId, body, before });
    },

    async holdCredentials(maker: StaffUser, requestId: string, change: HeldCredentialsChange): Promise<ApprovalAnswer> {
      return hold(maker, requestId, {
        environment: change.environment,
        kind: "credentials",
        action: change.action,
        permission: "credentials:manage",
        targetId: change.environment,
        body: credentialsBody(change),
        before: await dependencies.describeConnection(change.environment),
      });
    },

    /**
     * Approves a pending request someone else made and sends it: the claim is one conditional UPDATE, so of two
     * approvers clicking at once exactly one sends; the bank's answer or failure is recorded on the request.
     */
    async approve(user: StaffUser, id: number, note: string | null, requestId: string): Promise<ChangeRequestView> {
      const db = await dependencies.db();
      const claimed = await decided(user, id, "approve", note, requestId);
      let outcome: Parameters<typeof recordOutcome>[2];
      try {
        const result =
          claimed.kind === "bank"
            ? await dependencies.sendBank(bankChangeOf(claimed), user, requestId)
            : claimed.kind === "bulk"
              ? await startBulk(claimed, user)
              : claimed.kind === "staff"
                ? await applyStaff(claimed, user, requestId)
                : claimed.kind === "setting"
                  ? await applySetting(
                      user,
                      claimed.environment,
                      fullPayload(claimed).required === true,
                      `${claimed.makerEmail} (approved by ${user.email})`,
                      requestId,
                    )
                  : await dependencies.applyCredentials(
                      credentialsChange(claimed.environment, claimed.action, fullPayload(claimed)),
                      user,
                      claimed.makerEmail,
                      requestId,
                    );
        outcome = { outcome: "succeeded", result: result ?? null };
      } catch (error) {
        outcome = { outcome: "failed", error: error instanceof Error ? error.message : String(error) };
      }
      return viewOf(await recordOutcome(db, id, outcome));
    },

    async reject(user: StaffUser, id: number, note: string, requestId: string): Promise<ChangeRequestView> {
      return viewOf(await decided(user, id, "reject", note, requestId));
    },

    async withdraw(user: StaffUser, id: number, note: string | null, requestId: string): Promise<ChangeRequestView> {
      return viewOf(await decided(user, id, "withdraw", note, requestId));
    },
  };
}

export type ApprovalService = ReturnType<typeof approvalService>;

/** The setting as switched, or the request that holds the switch for a second admin. */
export type SettingAnswer = { environment: Environment; required: boolean } | ApprovalAnswer;
