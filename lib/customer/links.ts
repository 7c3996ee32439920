/**
 * What the console's index links to a person or a business (docs/console-pages.md, "A person's and a business's
 * view"). The bank names no account holder, so no money movement names a person or a business: the links are those
 * the objects themselves carry. A person application names the person it created (`person_id`); cards name their
 * holder (`person_id`) and deposit sweeps their customer (`customer_id`), each with the account it uses; a business
 * application names its owners' person applications (`person_applications[].id`). Each object is shown masked as every
 * page shows it; recent changes are the index's versions of the linked objects.
 */
import { sql } from "drizzle-orm";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { maskForViewer, type MaskedResource } from "@/lib/pii";
import { nameOf } from "@/lib/search/names";

export interface LinkedObject {
  id: string;
  resource: ListedResource;
  name: string | null;
  status: string | null;
  createdAt: string | null;
  /** The account it draws on or sweeps (cards, deposit sweeps). */
  accountId: string | null;
  /** For an owner of a business: their roles and share. */
  roles?: string[];
  ownership?: number | null;
}

export interface LinkedChange {
  id: string;
  resource: ListedResource;
  version: number;
  seenAt: string;
  /** The fields that differ from the previous version (none: first seen). */
  fields: string[];
  status: string | null;
}

export interface PersonLinks {
  kind: "person";
  /** The person the application created (`psn_…`), or null while none is. */
  personId: string | null;
  cards: LinkedObject[];
  depositSweeps: LinkedObject[];
  /** Business applications listing this application among their owners. */
  businesses: LinkedObject[];
  /** The accounts its cards and deposit sweeps use, each once. */
  accountIds: string[];
  changes: LinkedChange[];
}

export interface BusinessLinks {
  kind: "business";
  owners: Array<LinkedObject & { personId: string | null }>;
  changes: LinkedChange[];
}

/** At most this many objects of each kind, and this many recent changes, are shown. */
export const linkedLimit = 50;
export const changesLimit = 10;

type Row = { id: string; resource: ListedResource; state: Record<string, unknown>; created: string | null };

function shown(row: Row): LinkedObject & { state: Record<string, unknown> } {
  const state = maskForViewer(row.resource as MaskedResource, structuredClone(row.state));
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: row.id,
    resource: row.resource,
    name: nameOf(row.resource, state),
    status: text(state.status),
    createdAt: text(state.created_at),
    accountId: text(state.account_id),
    state,
  };
}
const withoutState = (object: ReturnType<typeof shown>): LinkedObject => {
  const { id, resource, name, status, createdAt, accountId } = object;
  return { id, resource, name, status, createdAt, accountId };
};

async function objectsWhere(db: ConsoleDb, environment: Environment, condition: ReturnType<typeof sql>): Promise<Row[]> {
  return (
    await db.execute<Row>(sql`
      SELECT o.id, o.resource, o.state, o.bank_created_at AS created
      FROM ${schema.bankObjects} o
      WHERE o.environment = ${environment} AND o.state IS NOT NULL AND ${condition}
      ORDER BY o.bank_created_at DESC NULLS LAST, o.id DESC
      LIMIT ${linkedLimit}`)
  ).rows;
}

/** The index's latest versions of these objects, newest first: what changed, and when the index saw it. */
export async function recentChanges(db: ConsoleDb, environment: Environment, ids: string[]): Promise<LinkedChange[]> {
  if (ids.length === 0) return [];
  const rows = (
    await db.execute<{
      object_id: string;
      resource: ListedResource;
      version: number;
      seen: string;
      changes: Array<{ path: string }>;
      status: string | null;
    }>(sql`
      SELECT v.object_id, v.resource, v.version, v.changes, v.state ->> 'status' AS status,
             to_char(v.seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS seen
      FROM ${schema.bankObjectVersions} v
      WHERE v.environment = ${environment} AND v.object_id IN ${ids}
      ORDER BY v.seen_at DESC, v.id DESC
      LIMIT ${changesLimit}`)
  ).rows;
  return rows.map((row) => ({
    id: row.object_id,
    resource: row.resource,
    version: Number(row.version),
    seenAt: row.seen,
    fields: [...new Set((row.changes ?? []).map((change) => String(change.path).split(".")[0]!))],
    status: row.status,
  }));
}

/** What the index links to a person application: its person, that person's cards and deposit sweeps, the businesses naming it. */
export async function personLinks(db: ConsoleDb, environment: Environment, applicationId: string): Promise<PersonLinks | null> {
  const [application] = await objectsWhere(db, environment, sql`o.id = ${applicationId} AND o.resource = 'person_application'`);
  if (!application) return null;
  const personId = typeof application.state.person_id === "string" && application.state.person_id !== "" ? application.state.person_id : null;
  const [cards, depositSweeps] = personId
    ? await Promise.all([
        objectsWhere(db, environment, sql`o.resource = 'card' AND o.state ->> 'person_id' = ${personId}`),
        objectsWhere(db, environment, sql`o.resource = 'deposit_sweep' AND o.state ->> 'customer_id' = ${personId}`),
      ])
    : [[], []];
  const businesses = await objectsWhere(
    db,
    environment,
    sql`o.resource = 'business_application' AND o.state -> 'person_applications' @> ${JSON.stringify([{ id: applicationId }])}::jsonb`,
  );
  const linked = [...cards, ...depositSweeps].map(shown);
  return {
    kind: "person",
    personId,
    cards: cards.map(shown).map(withoutState),
    depositSweeps: depositSweeps.map(shown).map(withoutState),
    businesses: businesses.map(shown).map(withoutState),
    accountIds: [...new Set(linked.map((object) => object.accountId).filter((id): id is string => id !== null))],
    changes: await recentChanges(db, environment, [applicationId, ...linked.map((object) => object.id), ...businesses.map((row) => row.id)]),
  };
}

/** What the index links to a business application: its owners' person applications (with the persons they created). */
export async function businessLinks(db: ConsoleDb, environment: Environment, applicationId: string): Promise<BusinessLinks | null> {
  const [business] = await objectsWhere(db, environment, sql`o.id = ${applicationId} AND o.resource = 'business_application'`);
  if (!business) return null;
  const listed = Array.isArray(business.state.person_applications)
    ? (business.state.person_applications as Array<{ id?: unknown; roles?: unknown; ownership_percentage?: unknown }>)
    : [];
  const ownerIds = listed.map((owner) => owner.id).filter((id): id is string => typeof id === "string");
  const found = ownerIds.length > 0 ? await objectsWhere(db, environment, sql`o.resource = 'person_application' AND o.id IN ${ownerIds}`) : [];
  const byId = new Map(found.map((row) => [row.id, shown(row)]));
  const owners = listed.flatMap((owner) => {
    const object = typeof owner.id === "string" ? byId.get(owner.id) : undefined;
    if (!object) return [];
    return [
      {
        ...withoutState(object),
        personId: typeof object.state.person_id === "string" ? object.state.person_id : null,
        roles: Array.isArray(owner.roles) ? owner.roles.map(String) : [],
        ownership: typeof owner.ownership_percentage === "number" ? owner.ownership_percentage : null,
      },
    ];
  });
  return { kind: "business", owners, changes: await recentChanges(db, environment, [applicationId, ...owners.map((owner) => owner.id)]) };
}
