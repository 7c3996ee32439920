import { randomBytes } from "node:crypto";
import { and, asc, eq, lte, or, sql } from "drizzle-orm";
import type { ConsoleDb } from "@/lib/db/console-db";
import { savedViews } from "@/lib/db/console-schema";
import type { ResourceName } from "@/lib/resources";
import type { SavedViewInput } from "./input";

/**
 * Saved views of lists: a name over a list's filters, sort and columns (shown, order, widths), kept in the console's database so they follow
 * their owner to any browser. A view is seen by its owner, or by everyone once shared; only its owner (or an admin,
 * who may tidy shared views) removes it.
 */
export interface SavedView {
  id: string;
  resource: ResourceName;
  name: string;
  ownerId: string;
  ownerEmail: string;
  shared: boolean;
  query: Record<string, string>;
  columns: Record<string, boolean>;
  /** The columns' order and the widths set (lib/views/layout.ts); {} for the list's own. */
  layout: { order?: string[]; widths?: Record<string, number> };
  createdAt: string;
}

export class SavedViewError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

type Row = typeof savedViews.$inferSelect;
const toView = (row: Row): SavedView => ({ ...row, resource: row.resource as ResourceName, createdAt: row.createdAt.toISOString() });

const visibleTo = (userId: string) => or(eq(savedViews.ownerId, userId), eq(savedViews.shared, true));

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string } }).cause ?? error;
  return (cause as { code?: string }).code === "23505";
};

/** How many views one person may keep, over all lists: what one person can add to everyone's sidebar stays bounded. */
export const maxViewsPerPerson = 50;

export async function createView(db: ConsoleDb, owner: { id: string; email: string }, input: SavedViewInput): Promise<SavedView> {
  const id = `view_${randomBytes(9).toString("base64url")}`;
  try {
    return await db.transaction(async (tx) => {
      // One save per person at a time, so two concurrent saves cannot both pass the count.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`saved_views:${owner.id}`}))`);
      const [kept] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(savedViews)
        .where(eq(savedViews.ownerId, owner.id));
      if ((kept?.count ?? 0) >= maxViewsPerPerson)
        throw new SavedViewError(409, `You already keep ${maxViewsPerPerson} saved views, the most one person may; remove one to save another`);
      const [row] = await tx
        .insert(savedViews)
        .values({ id, ownerId: owner.id, ownerEmail: owner.email, ...input })
        .returning();
      return toView(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new SavedViewError(409, `name: you already have a view named "${input.name}" on this list`);
    throw error;
  }
}

/** The views a staff member sees: their own and every shared one; of one list, or of all (the sidebar). */
export async function listViews(db: ConsoleDb, userId: string, resource?: ResourceName): Promise<SavedView[]> {
  const rows = await db
    .select()
    .from(savedViews)
    .where(resource ? and(visibleTo(userId), eq(savedViews.resource, resource)) : visibleTo(userId))
    .orderBy(asc(savedViews.resource), asc(savedViews.name), asc(savedViews.id));
  return rows.map(toView);
}

/**
 * The sidebar's views: of each list, at most `perList` (the person's own first, then shared ones, by name), with how
 * many they see there in all, so a long list ends in "more" rather than in every page of the console.
 */
export async function sidebarViewsOf(
  db: ConsoleDb,
  userId: string,
  perList: number,
): Promise<Array<Pick<SavedView, "id" | "resource" | "name" | "shared" | "query"> & { total: number }>> {
  const ranked = db
    .select({
      id: savedViews.id,
      resource: savedViews.resource,
      name: savedViews.name,
      shared: savedViews.shared,
      query: savedViews.query,
      rank: sql<number>`row_number() over (partition by ${savedViews.resource} order by ${savedViews.ownerId} = ${userId} desc, ${savedViews.name}, ${savedViews.id})`.as(
        "rank",
      ),
      total: sql<number>`(count(*) over (partition by ${savedViews.resource}))::int`.as("total"),
    })
    .from(savedViews)
    .where(visibleTo(userId))
    .as("ranked");
  const rows = await db
    .select({ id: ranked.id, resource: ranked.resource, name: ranked.name, shared: ranked.shared, query: ranked.query, total: ranked.total })
    .from(ranked)
    .where(lte(ranked.rank, perList))
    .orderBy(asc(ranked.resource), asc(ranked.rank));
  return rows.map((row) => ({ ...row, resource: row.resource as ResourceName }));
}

export async function findView(db: ConsoleDb, userId: string, id: string): Promise<SavedView | null> {
  const [row] = await db
    .select()
    .from(savedViews)
    .where(and(eq(savedViews.id, id), visibleTo(userId)))
    .limit(1);
  return row ? toView(row) : null;
}

/** Removes a view its owner made; an admin (`mayRemoveOthers`) may also remove another's shared view. */
export async function removeView(db: ConsoleDb, user: { id: string }, id: string, mayRemoveOthers: boolean): Promise<SavedView> {
  const view = await findView(db, user.id, id);
  if (!view) throw new SavedViewError(404, `No saved view ${id}`);
  if (view.ownerId !== user.id && !mayRemoveOthers) throw new SavedViewError(403, `Only ${view.ownerEmail}, who saved "${view.name}", may remove it`);
  await db.delete(savedViews).where(eq(savedViews.id, id));
  return view;
}
