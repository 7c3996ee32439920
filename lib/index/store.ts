import { sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { jsonDiff } from "@/lib/json-diff";
import { writeSearchDocuments } from "@/lib/search/store";
import type { ListedResource } from "@/lib/contract/operations";
import type { ProcessingOutcome } from "./inbox";
import type { ConsoleDb } from "@/lib/db/console-db";

/** One object as the bank answered it, or `state: null` when it answered 404 (deleted). */
export interface ObservedState {
  resource: ListedResource;
  id: string;
  state: Record<string, unknown> | null;
  /** The inbox row whose processing fetched it, when it differs per object of a batch (the worker's rounds). */
  eventId?: number;
}

export interface ObservationSource {
  source: "event" | "backfill" | "sweep";
  eventId?: number;
}

/** What one version row records of a change: which fields, not their values (those are in the two states). */
export interface FieldChange {
  path: string;
  kind: "added" | "removed" | "changed";
}

/**
 * Every index write takes this transaction-level lock first, so version ids are assigned and committed in the same
 * order: the live feed reads "every version after id N" and can never skip one that commits late.
 */
const indexWriteLock = 0x6261_6e6b; // "bank"

const timeOf = (value: unknown): Date | null => {
  if (typeof value !== "string") return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time;
};

type Kept = {
  id: string;
  state: Record<string, unknown> | null;
  bank_updated_at: string | null;
  version: number;
};

/**
 * Records what the bank answered for a batch of objects of one environment, in one transaction, and says per object
 * what it was: `changed` (a new version kept), `unchanged`, `older` (the bank's `updated_at` is before the kept one's:
 * an answer overtaken by a newer one, as happens when events arrive out of order) or `gone`.
 */
export async function recordObservations(
  db: ConsoleDb,
  environment: Environment,
  observed: ObservedState[],
  from: ObservationSource,
): Promise<ProcessingOutcome[]> {
  if (observed.length === 0) return [];
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${indexWriteLock})`);
    const ids = observed.map((object) => object.id);
    const keptRows = await tx.execute<Kept>(sql`
      SELECT id, state, bank_updated_at::text AS bank_updated_at, version FROM ${schema.bankObjects}
      WHERE environment = ${environment} AND id IN ${ids} FOR UPDATE`);
    const kept = new Map(keptRows.rows.map((row) => [row.id, row]));
    const versions: (typeof schema.bankObjectVersions.$inferInsert)[] = [];
    const objects: (typeof schema.bankObjects.$inferInsert)[] = [];
    const outcomes = observed.map((object): ProcessingOutcome => {
      const before = kept.get(object.id);
      if (object.state === null) {
        if (!before || before.state === null) return "gone";
        const version = before.version + 1;
        kept.set(object.id, { ...before, state: null, version });
        versions.push({
          environment,
          resource: object.resource,
          objectId: object.id,
          version,
          state: null,
          changes: [],
          source: from.source,
          eventId: object.eventId ?? from.eventId,
        });
        objects.push({
          environment,
          resource: object.resource,
          id: object.id,
          state: null,
          bankUpdatedAt: timeOf(before.bank_updated_at),
          version,
          goneAt: new Date(),
        });
        return "gone";
      }
      const updatedAt = timeOf(object.state.updated_at);
      const keptUpdatedAt = timeOf(before?.bank_updated_at);
      if (before?.state && updatedAt && keptUpdatedAt && updatedAt < keptUpdatedAt) return "older";
      const changes: FieldChange[] = before?.state ? jsonDiff(before.state, object.state).map(({ path, kind }) => ({ path, kind })) : [];
      if (before?.state && changes.length === 0) return "unchanged";
      const version = (before?.version ?? 0) + 1;
      kept.set(object.id, { id: object.id, state: object.state, bank_updated_at: updatedAt?.toISOString() ?? null, version });
      versions.push({
        environment,
        resource: object.resource,
        objectId: object.id,
        version,
        state: object.state,
        changes,
        source: from.source,
        eventId: object.eventId ?? from.eventId,
      });
      objects.push({
        environment,
        resource: object.resource,
        id: object.id,
        state: object.state,
        bankUpdatedAt: updatedAt,
        bankCreatedAt: timeOf(object.state.created_at),
        version,
        goneAt: null,
      });
      return "changed";
    });
    if (versions.length > 0) {
      await tx.insert(schema.bankObjectVersions).values(versions);
      // A batch may hold one object twice (two pages overlapping): the last row for an id is its newest.
      const latest = [...new Map(objects.map((object) => [object.id, object])).values()];
      await tx
        .insert(schema.bankObjects)
        .values(latest)
        .onConflictDoUpdate({
          target: [schema.bankObjects.environment, schema.bankObjects.id],
          set: {
            state: sql`excluded.state`,
            bankUpdatedAt: sql`excluded.bank_updated_at`,
            bankCreatedAt: sql`coalesce(excluded.bank_created_at, ${schema.bankObjects.bankCreatedAt})`,
            version: sql`excluded.version`,
            lastChangedAt: sql`now()`,
            goneAt: sql`excluded.gone_at`,
          },
        });
      // The search document of each object follows its latest state, in the same transaction (docs/search.md).
      await writeSearchDocuments(tx, environment, latest);
    }
    return outcomes;
  });
}
