import "server-only";
import type { Environment } from "@/lib/credentials/environments";
import type { Logger } from "@/lib/log";

/**
 * The console's index of the sandbox bank (docs/bank-index.md) after a reset or a restore. The bank emits no events
 * for either, and both replace its webhooks too, the console's own subscriptions included; so the index would keep
 * objects the bank no longer has and hear of no change to the new ones. Brought in line with the index's own
 * operations, as an admin would in Settings → Index: purge the environment, set its subscriptions up again, and walk
 * every list (a backfill, in the background).
 */
export interface IndexRebuildDependencies {
  /** Whether this console runs the index (INDEX=on and a CREDENTIALS_ENCRYPTION_KEY to seal its receiver's secret). */
  enabled(): boolean;
  purge(environment: Environment): Promise<void>;
  setUpSubscriptions(environment: Environment, actor: string): Promise<unknown>;
  startBackfill(environment: Environment): void;
  log: Logger;
}

/** What the answer of a reset or a restore says of the index. */
export type IndexState = { index: "rebuilding" } | { index: "off" } | { index: "failed"; index_error: string };

/**
 * Purges and re-subscribes before answering (a few statements and one bank call per event: the answer waits for them,
 * so the first change after it is heard), then starts the walk and answers `rebuilding`. A failure is answered rather
 * than thrown: the bank was reset; Settings → Index repairs the index.
 */
export async function rebuildIndex(dependencies: IndexRebuildDependencies, environment: Environment, actor: string): Promise<IndexState> {
  if (!dependencies.enabled()) return { index: "off" };
  try {
    await dependencies.purge(environment);
    await dependencies.setUpSubscriptions(environment, actor);
    dependencies.startBackfill(environment);
    return { index: "rebuilding" };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    dependencies.log.warn({ environment, reason }, "the index could not be rebuilt after a sandbox reset or restore");
    return { index: "failed", index_error: `${reason} (Settings → Index: purge, set up subscriptions, backfill)` };
  }
}
