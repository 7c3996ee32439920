import "server-only";
import { randomUUID } from "node:crypto";
import { consoleDb } from "@/lib/db/console";
import * as trail from "./trail";

export type { AuditEntry, AuditFilter, AuditRecord } from "./trail";

/**
 * Runs `perform` (a mutation) only after its audit record is written, and finalizes the record with the outcome.
 * Exactly one record per call. `after(result)` picks what to store as the state after the change.
 * See lib/audit/trail.ts for the full contract.
 */
export async function audited<T>(entry: trail.AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }) {
  const { db } = await consoleDb();
  return trail.audited(db, entry, perform, {
    ...options,
    onFinalizeError: (error) => console.error(`audit record for ${entry.action} (request ${entry.requestId}) could not be finalized:`, error),
  });
}

/** Records an event that has already happened (a reveal of personal data); throws when it cannot be written. */
export async function recordAuditEvent(entry: trail.AuditEntry & { after?: unknown }) {
  return trail.recordAuditEvent((await consoleDb()).db, entry);
}

/** A request id for work that does not come through the API wrapper (server actions). */
export const newRequestId = () => `req_${randomUUID()}`;
