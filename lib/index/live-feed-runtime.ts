import "server-only";
import { consoleSessions } from "@/lib/auth/current-user";
import { readSessionToken } from "@/lib/auth/session-token";
import { consoleDb } from "@/lib/db/console";
import { startLiveFeed, type LiveFeed } from "./live-feed";
import type { LiveSessions } from "./live-feed-sessions";

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

/** The console's sessions as the live route checks them: the cookie, the session row, the access-version notifications. */
export const liveSessions: LiveSessions = {
  token: readSessionToken,
  check: (token) => consoleSessions.check(token),
  onAccessChange(listener) {
    // The database is open by then: the stream that asks has subscribed to the feed, which opened it.
    const stopping = consoleDb().then((database) => database.accessVersion.onHeard(listener));
    return () =>
      void stopping.then(
        (stop) => stop(),
        () => {},
      );
  },
};
