import { eq, sql } from "drizzle-orm";
import type { BankClient } from "@/lib/bank/client";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { backfillProgress, indexedResources } from "./backfill";
import { describeSubscriptions, type SubscriptionState } from "./subscriptions";
import type { ConsoleDb } from "@/lib/db/console-db";

/** The receiver's credentials as Settings shows them: never the secret. */
export interface ReceiverSummary {
  username: string;
  keyId: string;
  createdAt: string;
  createdBy: string;
  /** Until when the secret the last rotation replaced is still accepted; null when none is. */
  previousValidUntil: string | null;
}

export type SubscriptionsView =
  { kind: "listed"; subscriptions: SubscriptionState[] } | { kind: "not configured" } | { kind: "unreachable"; reason: string };

/** `interrupted`: neither finished nor failed, and idle for longer than `walkIdleMs` (its process stopped). */
export type ListWalk = "not started" | "in progress" | "interrupted" | "done" | "error";

export interface BackfillList {
  resource: ListedResource;
  walk: ListWalk;
  objects: number;
  pages: number;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string | null;
  error: string | null;
}

/** What the index of one environment holds, by kind, and what of the inbox is still to do. */
export interface IndexContents {
  byResource: Array<{ resource: ListedResource; objects: number; gone: number }>;
  versions: number;
  inbox: { total: number; waiting: number; failing: number };
}

/**
 * A list whose walk moved this recently counts as being walked (by this or another console process): starting or
 * repairing then would run two walks over one cursor. A walk that died leaves its list idle, and after this long it
 * may be resumed.
 */
export const walkIdleMs = 60_000;

const iso = (date: Date | null) => date?.toISOString().replace(/\.\d{3}Z$/, "Z") ?? null;

export async function receiverSummary(db: ConsoleDb, environment: Environment): Promise<ReceiverSummary | null> {
  const [row] = await db.select().from(schema.receiverCredentials).where(eq(schema.receiverCredentials.environment, environment));
  if (!row) return null;
  const overlapping = row.previousSealedSecret !== null && row.previousValidUntil !== null && row.previousValidUntil > new Date();
  return {
    username: row.username,
    keyId: row.keyId,
    createdAt: iso(row.createdAt)!,
    createdBy: row.createdBy,
    previousValidUntil: overlapping ? iso(row.previousValidUntil) : null,
  };
}

/** The console's webhooks at the bank; what is wrong said plainly when the bank cannot be asked. */
export async function subscriptionsView(client: BankClient | null, environment: Environment): Promise<SubscriptionsView> {
  if (!client) return { kind: "not configured" };
  try {
    return { kind: "listed", subscriptions: await describeSubscriptions(client, environment) };
  } catch (error) {
    return { kind: "unreachable", reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Every indexed list in a fixed order, including those the walk has not reached yet. */
export async function backfillLists(db: ConsoleDb, environment: Environment, now = new Date()): Promise<BackfillList[]> {
  const kept = new Map((await backfillProgress(db, environment)).map((row) => [row.resource, row]));
  return indexedResources.map((resource) => {
    const row = kept.get(resource);
    if (!row) return { resource, walk: "not started", objects: 0, pages: 0, startedAt: null, finishedAt: null, updatedAt: null, error: null };
    const idle = now.getTime() - row.updatedAt.getTime() > walkIdleMs;
    const walk: ListWalk = row.finishedAt ? "done" : row.error ? "error" : idle ? "interrupted" : "in progress";
    return {
      resource,
      walk,
      objects: row.objects,
      pages: row.pages,
      startedAt: iso(row.startedAt),
      finishedAt: iso(row.finishedAt),
      updatedAt: iso(row.updatedAt),
      error: row.error,
    };
  });
}

export async function indexContents(db: ConsoleDb, environment: Environment): Promise<IndexContents> {
  // One query after another: the embedded database serves a limited number of connections, shared with the worker.
  const objects = await db
    .select({
      resource: schema.bankObjects.resource,
      objects: sql<number>`count(*) FILTER (WHERE ${schema.bankObjects.state} IS NOT NULL)::int`,
      gone: sql<number>`count(*) FILTER (WHERE ${schema.bankObjects.state} IS NULL)::int`,
    })
    .from(schema.bankObjects)
    .where(eq(schema.bankObjects.environment, environment))
    .groupBy(schema.bankObjects.resource);
  const versions = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(schema.bankObjectVersions)
    .where(eq(schema.bankObjectVersions.environment, environment));
  const inbox = await db
    .select({
      total: sql<number>`count(*)::int`,
      waiting: sql<number>`count(*) FILTER (WHERE ${schema.bankEventInbox.state} <> 'processed')::int`,
      failing: sql<number>`count(*) FILTER (WHERE ${schema.bankEventInbox.state} <> 'processed' AND ${schema.bankEventInbox.error} IS NOT NULL)::int`,
    })
    .from(schema.bankEventInbox)
    .where(eq(schema.bankEventInbox.environment, environment));
  const counted = new Map(objects.map((row) => [row.resource, row]));
  return {
    byResource: indexedResources.map((resource) => ({
      resource,
      objects: counted.get(resource)?.objects ?? 0,
      gone: counted.get(resource)?.gone ?? 0,
    })),
    versions: versions[0]!.count,
    inbox: inbox[0]!,
  };
}

/** Everything the Settings section shows of one environment's index. */
export interface IndexOverview {
  environment: Environment;
  receiver: ReceiverSummary | null;
  receiverUrl: string;
  subscriptions: SubscriptionsView;
  backfill: BackfillList[];
  contents: IndexContents;
}

export async function indexOverview(
  db: ConsoleDb,
  environment: Environment,
  bank: { client: BankClient | null; receiverUrl: string },
): Promise<IndexOverview> {
  const asking = subscriptionsView(bank.client, environment);
  const receiver = await receiverSummary(db, environment);
  const backfill = await backfillLists(db, environment);
  const contents = await indexContents(db, environment);
  const subscriptions = await asking;
  return { environment, receiver, receiverUrl: bank.receiverUrl, subscriptions, backfill, contents };
}
