import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createApiRoute } from "@/lib/api/route";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { readEvents } from "@/tests/support/event-stream";
import { startLiveFeed, type LiveFeed, type LiveMessage } from "./live-feed";
import type { LiveSessions } from "./live-feed-sessions";
import { liveStreamRoute, type LiveStreamOptions } from "./live-feed-stream";
import { recordObservations } from "./store";

// The live feed against a real console database: versions written as the index writes them (recordObservations),
// heard through LISTEN/NOTIFY, read back from the table and passed on to subscribers.

const viewer: StaffUser = { id: "stf_viewer", email: "viewer@demo.bank", name: "Viewer", role: "viewer", locked: false };
const quiet = createLogger({ level: "silent" });
/** The viewer's session, given (docs/testing.md); lib/index/live-feed-sessions.test.ts checks streams against real ones. */
const viewerSession: LiveSessions = {
  token: async () => ({ sub: viewer.id, sid: "viewer-session" }),
  check: async () => ({ user: viewer }),
  onAccessChange: () => () => {},
};

async function waitFor(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A subscriber that keeps what it is told. */
function collector() {
  const messages: LiveMessage[] = [];
  const changeIds = () => messages.flatMap((message) => (message.type === "change" ? [message.change.id] : []));
  return { messages, changeIds, deliver: (message: LiveMessage) => void messages.push(message) };
}

describe.each(testDatabaseTargets)("the live feed on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const feeds: LiveFeed[] = [];
  const feed = (options?: Parameters<typeof startLiveFeed>[1], pool = database.pool) => {
    const started = startLiveFeed(pool, { pollMs: 60_000, ...options });
    feeds.push(started);
    return started;
  };
  afterEach(() => {
    for (const started of feeds.splice(0)) started.close();
  });

  /** Writes one new version for each of `count` new ACH transfers, one transaction each, and returns their object ids. */
  async function writeVersions(count: number, db = database.db): Promise<string[]> {
    const ids = Array.from({ length: count }, () => `ach_live_${randomBytes(5).toString("hex")}`);
    for (const id of ids) {
      await recordObservations(db, "sandbox", [{ resource: "ach", id, state: { id, status: "pending", updated_at: new Date().toISOString() } }], {
        source: "event",
      });
    }
    return ids;
  }

  async function versionIds(objectIds: string[]): Promise<number[]> {
    const rows = await database.pool.query<{ id: string }>("SELECT id FROM console.bank_object_versions WHERE object_id = ANY($1) ORDER BY id", [
      objectIds,
    ]);
    return rows.rows.map((row) => Number(row.id));
  }

  const newestId = async () =>
    Number((await database.pool.query<{ id: string | null }>("SELECT max(id) AS id FROM console.bank_object_versions")).rows[0]!.id ?? 0);

  it("passes every version written by the index to a subscriber, in order, with its kind and object id only", async () => {
    const start = await newestId();
    const subscriber = collector();
    const subscription = await feed().subscribe(null, subscriber.deliver);
    const written = await writeVersions(5);
    const ids = await versionIds(written);
    await waitFor(() => subscriber.changeIds().length === 5);
    expect(subscriber.messages[0]).toEqual({ type: "ready", latestId: start });
    expect(subscriber.messages.slice(1)).toEqual(
      written.map((objectId, index) => ({ type: "change", change: { id: ids[index], environment: "sandbox", resource: "ach", objectId } })),
    );
    subscription.close();
  });

  it("catches a subscriber up from the id it gives, then goes on live, with no gap and no repeat", async () => {
    const earlier = await writeVersions(4);
    const earlierIds = await versionIds(earlier);
    const subscriber = collector();
    await feed().subscribe(earlierIds[1]!, subscriber.deliver);
    expect(subscriber.messages).toEqual([
      ...earlier
        .slice(2)
        .map((objectId, index) => ({ type: "change", change: { id: earlierIds[index + 2], environment: "sandbox", resource: "ach", objectId } })),
      { type: "ready", latestId: earlierIds[3] },
    ]);
    const later = await writeVersions(3);
    await waitFor(() => subscriber.changeIds().length === 5);
    expect(subscriber.changeIds()).toEqual([...earlierIds.slice(2), ...(await versionIds(later))]);
  });

  it("tells each change once when versions commit while the catch-up is read", async () => {
    const start = await newestId();
    const running = feed();
    const writing = writeVersions(40);
    const subscribers = [];
    // Subscribers join at different moments of the writing, each from the same id: each must see all 40 exactly once.
    for (let joined = 0; joined < 4; joined++) {
      const subscriber = collector();
      await running.subscribe(start, subscriber.deliver);
      subscribers.push(subscriber);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const all = await versionIds(await writing);
    for (const subscriber of subscribers) {
      await waitFor(() => subscriber.changeIds().length >= 40);
      expect(subscriber.changeIds()).toEqual(all);
      expect(subscriber.messages.filter((message) => message.type === "ready")).toHaveLength(1);
    }
  });

  it("sends a reset instead of a catch-up longer than its cap, and one for an id ahead of the index", async () => {
    const start = await newestId();
    await writeVersions(4);
    const newest = await newestId();
    const behind = collector();
    const running = feed({ maxCatchUp: 3 });
    await running.subscribe(start, behind.deliver);
    expect(behind.messages).toEqual([
      { type: "reset", latestId: newest },
      { type: "ready", latestId: newest },
    ]);
    const ahead = collector();
    await running.subscribe(newest + 1000, ahead.deliver);
    expect(ahead.messages).toEqual([
      { type: "reset", latestId: newest },
      { type: "ready", latestId: newest },
    ]);
  });

  it("reaches two feeds on two pools of one database with a change written through a third connection", async () => {
    const pools = [0, 1, 2].map(() => connectDatabase(database.pool.options.connectionString!, schema, { max: 2 }));
    try {
      const subscribers = [collector(), collector()];
      await feed({}, pools[0]!.pool).subscribe(null, subscribers[0]!.deliver);
      await feed({}, pools[1]!.pool).subscribe(null, subscribers[1]!.deliver);
      const ids = await versionIds(await writeVersions(2, pools[2]!.db));
      // The poll is a minute away: only the notification can bring them this fast.
      for (const subscriber of subscribers) await waitFor(() => subscriber.changeIds().length === 2, 5_000);
      for (const subscriber of subscribers) expect(subscriber.changeIds()).toEqual(ids);
    } finally {
      for (const started of feeds.splice(0)) started.close();
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });

  // PGlite serves every connection from one process: there is no backend of the listener's own to end.
  it.skipIf(target.name === "pglite")("reads what it missed after its listening connection is lost, and listens again", async () => {
    const subscriber = collector();
    const running = feed({ retryMs: 20 });
    await running.subscribe(null, subscriber.deliver);
    await database.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN console_bank_index' AND pid <> pg_backend_pid()",
    );
    const first = await versionIds(await writeVersions(1));
    await waitFor(() => subscriber.changeIds().length === 1);
    const second = await versionIds(await writeVersions(1));
    await waitFor(() => subscriber.changeIds().length === 2, 5_000);
    expect(subscriber.changeIds()).toEqual([...first, ...second]);
  });

  describe("as Server-Sent Events", () => {
    const routeOf = (running: () => Promise<LiveFeed>, options?: LiveStreamOptions) =>
      createApiRoute({ currentUser: async () => viewer, log: quiet })(liveStreamRoute(running, viewerSession, options));
    const route = routeOf(async () => feed());
    const open = (query = "", headers: Record<string, string> = {}, through = route) => {
      const aborted = new AbortController();
      return { aborted, response: through(new Request(`http://console.test/api/live${query}`, { headers, signal: aborted.signal })) };
    };

    it("streams the catch-up, ready and live changes as events with their version ids, and nothing else", async () => {
      const start = await newestId();
      const [before] = await writeVersions(1);
      const { aborted, response: answer } = open(`?after=${start}`);
      const response = await answer;
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
      expect(response.headers.get("x-accel-buffering")).toBe("no");
      const [beforeId] = await versionIds([before!]);
      const opening = await readEvents(response, (text) => text.includes("event: ready"));
      expect(opening).toBe(
        `event: change\nid: ${beforeId}\ndata: {"environment":"sandbox","resource":"ach","id":"${before}"}\n\n` +
          `event: ready\nid: ${beforeId}\ndata: {"latestId":${beforeId}}\n\n`,
      );
      const [after] = await writeVersions(1);
      const [afterId] = await versionIds([after!]);
      expect(await readEvents(response, (text) => text.includes("\n\n"))).toBe(
        `event: change\nid: ${afterId}\ndata: {"environment":"sandbox","resource":"ach","id":"${after}"}\n\n`,
      );
      // The client going away ends the stream.
      aborted.abort();
      expect(await response.body!.getReader().read()).toEqual({ done: true, value: undefined });
    });

    it("starts after the Last-Event-ID header when it is beyond ?after=", async () => {
      const start = await newestId();
      const written = await writeVersions(2);
      const ids = await versionIds(written);
      const { aborted, response } = open(`?after=${start}`, { "last-event-id": String(ids[0]) });
      const text = await readEvents(await response, (sofar) => sofar.includes("event: ready"));
      expect(text).not.toContain(written[0]);
      expect(text).toContain(`id: ${ids[1]}\ndata: {"environment":"sandbox","resource":"ach","id":"${written[1]}"}`);
      aborted.abort();
    });

    it.each([
      ["?after=abc", {}, /Invalid query: after: expected a version id/],
      ["?after=-1", {}, /after: expected a version id/],
      ["?after=1&after=2", {}, /after is given more than once/],
      ["", { "last-event-id": "1e3" }, /Invalid Last-Event-ID header: expected a version id/],
    ])("refuses %s %o with 400 naming it", async (query, headers, message) => {
      const response = await open(query, headers).response;
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(message);
    });

    it("drops a client that does not read past its bound of unread bytes; it reconnects and catches up from its last id", async () => {
      const running = feed();
      const slow = routeOf(async () => running, { maxUnreadBytes: 4096 });
      const start = await newestId();
      const { response: answer, aborted } = open(`?after=${start}`, {}, slow);
      const response = await answer;
      await readEvents(response, (text) => text.includes("event: ready"));
      // ~95 bytes an event: 80 changes are about twice the bound, and the client reads none of them.
      const everyone = collector();
      await running.subscribe(start, everyone.deliver);
      const written = await writeVersions(80);
      await waitFor(() => everyone.changeIds().length === 80);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(response.body!.getReader().read()).rejects.toThrow("the live client read too slowly");
      aborted.abort();
      const again = open(`?after=${start}`);
      const caughtUp = await readEvents(await again.response, (text) => text.includes("event: ready"));
      for (const objectId of written) expect(caughtUp).toContain(`"id":"${objectId}"`);
      again.aborted.abort();
    });

    it("answers 401 without a session", async () => {
      const signedOut = createApiRoute({ currentUser: async () => null, log: quiet })(liveStreamRoute(async () => feed(), viewerSession));
      expect((await signedOut(new Request("http://console.test/api/live"))).status).toBe(401);
    });
  });
});
