import { expect } from "vitest";
import { listAuditRecords, type AuditRecord } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { ConsoleTestDatabase } from "./console-database";
import { can, type Permission } from "@/lib/permissions";

/** The audit records written under `requestId` (every change a test makes carries a request id of its own). */
export async function auditRecordsOf(database: ConsoleTestDatabase, requestId: string | null): Promise<AuditRecord[]> {
  return (await listAuditRecords(database.db, {}, { limit: 10_000 })).filter((record) => record.requestId === requestId);
}

/** The whole record a change must leave: who (id, email, role), where, under which request, and `fields`. */
export function expectedAuditRecord(
  by: { actor: Pick<StaffUser, "id" | "email" | "role">; environment: string | null; requestId: string },
  fields: Pick<AuditRecord, "action" | "targetId" | "before" | "after" | "outcome" | "error">,
): AuditRecord {
  return {
    id: expect.any(Number),
    at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    actorId: by.actor.id,
    actorEmail: by.actor.email,
    role: by.actor.role,
    environment: by.environment,
    requestId: by.requestId,
    ...fields,
  };
}

/** Thrown by `requireRole` where the real `requireUser` answers 403. */
export class Refused extends Error {}

/** A `requireUser` for server-action tests: the given actor when their role holds the permission, else Refused. */
export const requireRole = (actor: () => StaffUser) => async (permission: Permission) => {
  if (!can(actor().role, permission)) throw new Refused(`${actor().role} lacks ${permission}`);
  return actor();
};

/** A submitted form, as a server action receives it. */
export function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}
