import { and, desc, eq, gt, inArray, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { ConsoleError } from "@/lib/api/errors";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";
import type { Role } from "@/lib/permissions";
import { sponsoredRefusal } from "./independence";
import { defaultApprovalRequired, secretFields, secretShown, type ApprovalStatus, type ChangeKind } from "./codes";
import { timeInMessage } from "@/lib/format/time";

const { changeApprovalSettings, changeRequests } = schema;

/** Why a decision on a request was refused: told to the person as is, with an HTTP status (a 4xx, never a 5xx). */
export class ApprovalRefusal extends ConsoleError {}

export interface Person {
  id: string;
  email: string;
  role: Role;
}

// ---- settings -----------------------------------------------------------------------------------------------------

export interface ApprovalSetting {
  environment: Environment;
  required: boolean;
  /** Null while the default applies (nothing saved). */
  updatedAt: string | null;
  updatedBy: string | null;
}

export async function readApprovalSettings(db: ConsoleDb): Promise<Record<Environment, ApprovalSetting>> {
  const rows = await db.select().from(changeApprovalSettings);
  const settingOf = (environment: Environment): ApprovalSetting => {
    const row = rows.find((candidate) => candidate.environment === environment);
    return row
      ? { environment, required: row.required, updatedAt: row.updatedAt.toISOString(), updatedBy: row.updatedBy }
      : { environment, required: defaultApprovalRequired[environment], updatedAt: null, updatedBy: null };
  };
  return { sandbox: settingOf("sandbox"), production: settingOf("production") };
}

export async function approvalRequired(db: ConsoleDb, environment: Environment): Promise<boolean> {
  const [row] = await db
    .select({ required: changeApprovalSettings.required })
    .from(changeApprovalSettings)
    .where(eq(changeApprovalSettings.environment, environment));
  return row ? row.required : defaultApprovalRequired[environment];
}

export async function setApprovalRequired(db: ConsoleDb, environment: Environment, required: boolean, updatedBy: string): Promise<void> {
  const values = { required, updatedAt: new Date(), updatedBy };
  await db
    .insert(changeApprovalSettings)
    .values({ environment, ...values })
    .onConflictDoUpdate({ target: changeApprovalSettings.environment, set: values });
}

// ---- requests -----------------------------------------------------------------------------------------------------

export type ChangeRequestRow = typeof changeRequests.$inferSelect;

export interface NewChangeRequest {
  environment: Environment;
  kind: ChangeKind;
  action: string;
  /** The permission the change itself needs: the approver must hold it too. */
  permission: string;
  targetId: string | null;
  operationId?: string;
  method?: string;
  path?: string;
  params?: Record<string, string>;
  /** What will be sent, without its secrets. */
  payload: unknown;
  sealedSecrets?: string | null;
  /** The values at the bank (or the connection) the change replaces, as of the request. */
  before?: unknown;
  maker: Person;
  requestId: string;
  expiresAt: Date;
}

export async function createChangeRequest(db: ConsoleDb, request: NewChangeRequest): Promise<ChangeRequestRow> {
  const [row] = await db
    .insert(changeRequests)
    .values({
      environment: request.environment,
      kind: request.kind,
      action: request.action,
      permission: request.permission,
      targetId: request.targetId,
      operationId: request.operationId ?? null,
      method: request.method ?? null,
      path: request.path ?? null,
      params: request.params ?? null,
      payload: request.payload ?? null,
      sealedSecrets: request.sealedSecrets ?? null,
      before: request.before ?? null,
      makerId: request.maker.id,
      makerEmail: request.maker.email,
      makerRole: request.maker.role,
      requestId: request.requestId,
      expiresAt: request.expiresAt,
    })
    .returning();
  return row!;
}

/** A request as pages and answers show it: its status (expired included), times as ISO strings, no sealed secrets. */
export interface ChangeRequestView {
  id: number;
  environment: Environment;
  kind: ChangeKind;
  action: string;
  permission: string;
  targetId: string | null;
  method: string | null;
  path: string | null;
  /** What will be (or was) sent; each secret it carries shows as `secretShown`. */
  payload: unknown;
  before: unknown;
  status: ApprovalStatus;
  maker: Person;
  requestedAt: string;
  expiresAt: string;
  decidedBy: Person | null;
  decidedAt: string | null;
  decisionNote: string | null;
  outcome: "succeeded" | "failed" | null;
  sentAt: string | null;
  result: unknown;
  error: string | null;
}

/** The payload with a mark in place of each secret it was stored without (`secretKeys`: the sealed fields' names). */
export function shownPayload(payload: unknown, secretKeys: readonly string[]): unknown {
  if (!payload || typeof payload !== "object" || Array.isArray(payload) || secretKeys.length === 0) return payload;
  return { ...(payload as Record<string, unknown>), ...Object.fromEntries(secretKeys.map((key) => [key, secretShown])) };
}

/** Splits a body into what may be stored and shown, and its secrets (by name, `secretFields`), which are sealed apart. */
export function withoutSecrets(body: unknown): { payload: unknown; secrets: Record<string, unknown> | null } {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { payload: body ?? null, secrets: null };
  const payload: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((secretFields as readonly string[]).includes(key) && value !== null && value !== undefined && value !== "") secrets[key] = value;
    else payload[key] = value;
  }
  return { payload, secrets: Object.keys(secrets).length ? secrets : null };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function statusOf(row: Pick<ChangeRequestRow, "state" | "expiresAt">, now = new Date()): ApprovalStatus {
  return row.state === "pending" && row.expiresAt.getTime() <= now.getTime() ? "expired" : row.state;
}

/** The names of the secrets a request carries sealed, kept in the clear payload as `{ "$sealed": [...] }`. */
export function sealedNames(row: Pick<ChangeRequestRow, "payload">): string[] {
  const payload = row.payload as { $sealed?: unknown } | null;
  return Array.isArray(payload?.$sealed) ? (payload.$sealed as string[]) : [];
}

export function viewOf(row: ChangeRequestRow, now = new Date()): ChangeRequestView {
  const names = sealedNames(row);
  const payload = names.length ? { ...(row.payload as Record<string, unknown>) } : row.payload;
  if (names.length) {
    delete (payload as Record<string, unknown>).$sealed;
    delete (payload as Record<string, unknown>).$handle;
  }
  return {
    id: row.id,
    environment: row.environment,
    kind: row.kind,
    action: row.action,
    permission: row.permission,
    targetId: row.targetId,
    method: row.method,
    path: row.path,
    payload: shownPayload(payload, names),
    before: row.before,
    status: statusOf(row, now),
    maker: { id: row.makerId, email: row.makerEmail, role: row.makerRole as Role },
    requestedAt: row.requestedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedBy: row.decidedById ? { id: row.decidedById, email: row.decidedByEmail!, role: row.decidedByRole as Role } : null,
    decidedAt: iso(row.decidedAt),
    decisionNote: row.decisionNote,
    outcome: row.outcome,
    sentAt: iso(row.sentAt),
    result: row.result,
    error: row.error,
  };
}

export async function readChangeRequest(db: ConsoleDb, id: number): Promise<ChangeRequestRow | null> {
  const [row] = await db.select().from(changeRequests).where(eq(changeRequests.id, id));
  return row ?? null;
}

export interface ChangeRequestFilter {
  status: ApprovalStatus | "any";
  environment: Environment | "any";
  /** Keyset paging, newest first: only requests with a smaller id. */
  before?: number;
}

/** Who reads the list: requests for a change they may not make (credentials, for operations) stay hidden, except their own. */
export interface ListReader {
  id: string;
  permissions: readonly string[];
}

export const listLimit = 50;

/** Newest first, at most `listLimit`, and whether more match. */
export async function listChangeRequests(
  db: ConsoleDb,
  filter: ChangeRequestFilter,
  reader: ListReader,
): Promise<{ rows: ChangeRequestView[]; more: boolean }> {
  const now = new Date();
  const byStatus: SQL | undefined =
    filter.status === "any"
      ? undefined
      : filter.status === "pending"
        ? and(eq(changeRequests.state, "pending"), gt(changeRequests.expiresAt, now))
        : filter.status === "expired"
          ? and(eq(changeRequests.state, "pending"), lte(changeRequests.expiresAt, now))
          : eq(changeRequests.state, filter.status);
  const rows = await db
    .select()
    .from(changeRequests)
    .where(
      and(
        byStatus,
        filter.environment === "any" ? undefined : eq(changeRequests.environment, filter.environment),
        filter.before ? lt(changeRequests.id, filter.before) : undefined,
        or(inArray(changeRequests.permission, [...reader.permissions]), eq(changeRequests.makerId, reader.id)),
      ),
    )
    .orderBy(desc(changeRequests.id))
    .limit(listLimit + 1);
  return { rows: rows.slice(0, listLimit).map((row) => viewOf(row, now)), more: rows.length > listLimit };
}

/** How many requests await approval now, per environment (for the sidebar and Home). */
export async function countPending(db: ConsoleDb): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(changeRequests)
    .where(and(eq(changeRequests.state, "pending"), gt(changeRequests.expiresAt, sql`now()`)));
  return row?.count ?? 0;
}

/** Why a request cannot be decided now, in words (`null`: it can). */
function refusalFor(row: ChangeRequestRow, decider: Person, decision: "approve" | "reject" | "withdraw"): ApprovalRefusal | null {
  const status = statusOf(row);
  if (status === "expired")
    return new ApprovalRefusal(409, "approval_expired", `request ${row.id} expired at ${timeInMessage(row.expiresAt.toISOString())}; ask again`);
  if (status !== "pending")
    return new ApprovalRefusal(
      409,
      "approval_decided",
      `request ${row.id} is already ${status}${row.decidedByEmail ? ` by ${row.decidedByEmail}` : ""}`,
    );
  if (decision === "withdraw" && row.makerId !== decider.id)
    return new ApprovalRefusal(403, "not_maker", `only ${row.makerEmail}, who asked for request ${row.id}, can withdraw it`);
  if (decision !== "withdraw" && row.makerId === decider.id)
    return new ApprovalRefusal(403, "self_approval", `you asked for request ${row.id}; a different person must ${decision} it (four-eyes)`);
  return null;
}

/**
 * Throws why `decider` cannot take `decision` on the request now: its state, the maker's own request, or (to approve) an
 * account the maker created or last promoted (lib/approvals/independence.ts).
 */
export async function assertDecidable(db: ConsoleDb, row: ChangeRequestRow, decider: Person, decision: "approve" | "reject" | "withdraw") {
  const refused = refusalFor(row, decider, decision);
  if (refused) throw refused;
  const sponsored = decision === "approve" ? await sponsoredRefusal(db, decider.id, { id: row.makerId, email: row.makerEmail }) : null;
  if (sponsored) throw new ApprovalRefusal(403, "sponsored_by_maker", `request ${row.id}: ${sponsored}`);
}

/**
 * Decides a pending request, once: one conditional UPDATE (`state = 'pending'`, not expired by the database's clock,
 * and for approve and reject a decider other than the maker; for withdraw the maker) in one transaction. Of two people
 * deciding at once, one UPDATE finds it pending; the other is told who decided it. An approver whose account the maker
 * created or last promoted is refused (lib/approvals/independence.ts).
 */
export async function decideChangeRequest(
  db: ConsoleDb,
  id: number,
  decider: Person,
  decision: "approve" | "reject" | "withdraw",
  note: string | null,
): Promise<ChangeRequestRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(changeRequests).where(eq(changeRequests.id, id));
    if (!row) throw new ApprovalRefusal(404, "not_found", `no change request ${id}`);
    await assertDecidable(tx, row, decider, decision);
    const state = decision === "approve" ? "approved" : decision === "reject" ? "rejected" : "withdrawn";
    const [decided] = await tx
      .update(changeRequests)
      .set({ state, decidedById: decider.id, decidedByEmail: decider.email, decidedByRole: decider.role, decidedAt: new Date(), decisionNote: note })
      .where(
        and(
          eq(changeRequests.id, id),
          eq(changeRequests.state, "pending"),
          sql`${changeRequests.expiresAt} > now()`,
          decision === "withdraw" ? eq(changeRequests.makerId, decider.id) : ne(changeRequests.makerId, decider.id),
        ),
      )
      .returning();
    if (decided) return decided;
    const [now] = await tx.select().from(changeRequests).where(eq(changeRequests.id, id));
    throw refusalFor(now!, decider, decision) ?? new ApprovalRefusal(409, "approval_decided", `request ${id} changed meanwhile; reload it`);
  });
}

/** Records what the bank (or the credentials store) answered to an approved request: once. */
export async function recordOutcome(
  db: ConsoleDb,
  id: number,
  outcome: { outcome: "succeeded"; result: unknown } | { outcome: "failed"; error: string },
): Promise<ChangeRequestRow> {
  const [row] = await db
    .update(changeRequests)
    .set(
      outcome.outcome === "succeeded"
        ? { outcome: "succeeded", result: outcome.result ?? null, sentAt: new Date() }
        : { outcome: "failed", error: outcome.error, sentAt: new Date() },
    )
    .where(and(eq(changeRequests.id, id), eq(changeRequests.state, "approved"), sql`${changeRequests.outcome} IS NULL`))
    .returning();
  if (!row) throw new ApprovalRefusal(409, "approval_decided", `request ${id} already has its outcome`);
  return row;
}
