import "server-only";
import { consoleDb } from "@/lib/db/console";
import { startLiveFeed, type LiveFeed } from "./live-feed";

/**
 * The live feed of this server process, started on first use. Kept on globalThis because Next.js bundles each route
 * separately, each with its own copy of this module (lib/index/runtime.ts does the same).
 */
const processState = ((globalThis as { __liveFeed?: { feed?: Promise<LiveFeed> } }).__liveFeed ??= {});

export function liveFeed(): Promise<LiveFeed> {
  processState.feed ??= consoleDb()
    .then((database) => startLiveFeed(database.pool))
    .catch((error: unknown) => {
      processState.feed = undefined;
      throw error;
    });
  return processState.feed;
}
