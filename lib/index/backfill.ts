import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { BankClient, ListedObject, Page } from "@/lib/bank/client";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import { recordObservations } from "./store";
import type { ConsoleDb } from "@/lib/db/console-db";

const progress = schema.indexBackfill;

export const indexedResources = Object.keys(listedResources) as ListedResource[];

export interface BackfillOptions {
  db: ConsoleDb;
  client: BankClient;
  environment: Environment;
  /** Objects per page asked of the bank. */
  pageSize: number;
  /** At most this many pages per second, so the bank's own users do not feel the walk; 0: no limit (benchmarks). */
  pagesPerSecond: number;
  log: Logger;
  signal?: AbortSignal;
}

export type BackfillProgress = typeof progress.$inferSelect;

export async function backfillProgress(db: ConsoleDb, environment: Environment): Promise<BackfillProgress[]> {
  return db.select().from(progress).where(eq(progress.environment, environment)).orderBy(progress.resource);
}

/** Forgets where the walk stood, so the next run reads every list again from its first page (a repair). */
export async function resetBackfill(db: ConsoleDb, environment: Environment): Promise<void> {
  await db.delete(progress).where(eq(progress.environment, environment));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Walks every list of the bank through its cursor pages into the index. Resumable: after each page the cursor it gave
 * is kept, so a restart continues where the walk stood; a list already walked is skipped. Returns when every list is
 * done, when aborted, or at the first failure (kept in the list's `error`; the next run retries from the kept cursor).
 */
export async function runBackfill(options: BackfillOptions): Promise<"done" | "aborted" | "failed"> {
  const { db, client, environment, signal } = options;
  const minimumPageMs = options.pagesPerSecond > 0 ? 1000 / options.pagesPerSecond : 0;
  for (const resource of indexedResources) {
    await db.insert(progress).values({ environment, resource }).onConflictDoNothing();
    const [state] = await db
      .select()
      .from(progress)
      .where(and(eq(progress.environment, environment), eq(progress.resource, resource)));
    if (state!.finishedAt) continue;
    let cursor = state!.cursor;
    while (!signal?.aborted) {
      const started = performance.now();
      let page: Page<ListedObject>;
      try {
        page = cursor ? await client.resources.listPageAt(resource, cursor) : await client.resources.list(resource, { page_size: options.pageSize });
        const objects = page.data.map((state) => ({ resource, id: state.id, state }));
        await recordObservations(db, environment, objects, { source: "backfill" });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        options.log.warn({ environment, resource, reason }, "index backfill stopped; it continues from the kept cursor");
        await db
          .update(progress)
          .set({ error: reason.slice(0, 500), updatedAt: new Date() })
          .where(and(eq(progress.environment, environment), eq(progress.resource, resource)));
        return "failed";
      }
      cursor = page.page_next ?? null;
      await db
        .update(progress)
        .set({
          cursor,
          objects: sql`${progress.objects} + ${page.data.length}`,
          pages: sql`${progress.pages} + 1`,
          finishedAt: cursor ? null : new Date(),
          error: null,
          updatedAt: new Date(),
        })
        .where(and(eq(progress.environment, environment), eq(progress.resource, resource)));
      if (!cursor) break;
      const elapsed = performance.now() - started;
      if (elapsed < minimumPageMs) await sleep(minimumPageMs - elapsed, signal);
    }
    if (signal?.aborted) return "aborted";
  }
  return "done";
}

/**
 * Re-reads the newest page of every list: an event lost while the console was down for longer than the bank's retry
 * window is still picked up on the next sweep. Returns how many objects changed.
 */
export async function sweepNewest(db: ConsoleDb, client: BankClient, environment: Environment, pageSize: number): Promise<number> {
  let changed = 0;
  for (const resource of indexedResources) {
    const page = await client.resources.list(resource, { page_size: pageSize });
    const outcomes = await recordObservations(
      db,
      environment,
      page.data.map((state) => ({ resource, id: state.id, state })),
      { source: "sweep" },
    );
    changed += outcomes.filter((outcome) => outcome === "changed").length;
  }
  return changed;
}
