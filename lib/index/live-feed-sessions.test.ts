import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { rateLimitRules } from "@/lib/api/rate-limit";
import { createApiRoute } from "@/lib/api/route";
import { createAccessCache, heldConnectionVersionReader } from "@/lib/auth/access-cache";
import { accessVersionChannel, notifiedVersionReader } from "@/lib/auth/notified-version-reader";
import type { SessionToken } from "@/lib/auth/session-token";
import { createSession, endSession, findSession, sessionChecker } from "@/lib/auth/sessions";
import { createStaff, removeStaff, updateStaff } from "@/lib/auth/staff-users";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { runShutdownSteps } from "@/lib/health/shutdown";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { readEvents } from "@/tests/support/event-stream";
import { startLiveFeed, type LiveFeed } from "./live-feed";
import { maxStreamsPerSession, maxStreamsPerUser, type LiveSessions } from "./live-feed-sessions";
import { liveStreamRoute, type LiveStreamOptions } from "./live-feed-stream";

// /api/live against real sessions: a console process wired as lib/db/console.ts and lib/index/live-feed-runtime.ts
// wire it (its own pool, every connection listening for access-version notifications, the access cache, the session
// checker), while sign-out, lock and removal are done through another connection, as another console process would.

const quiet = createLogger({ level: "silent" });
const hour = 3_600_000;

describe.each(testDatabaseTargets)("live streams and their sessions on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function newSession(userId?: string): Promise<SessionToken> {
    const user =
      userId ??
      (await createStaff(database.db, { email: `live-${randomBytes(5).toString("hex")}@bank.example`, name: "Live", role: "viewer", password: null }))
        .id;
    const session = await createSession(database.db, { userId: user, maxAgeMs: hour, userAgent: "test", address: null });
    return { sub: user, sid: session.id };
  }

  /** A console process serving /api/live; `open(token)` is a request with that session's cookie. */
  function consoleProcess(options: LiveStreamOptions & { idleMs?: number; notifications?: boolean } = {}) {
    const own = connectDatabase(database.pool.options.connectionString!, schema, {
      max: 4,
      listen: { channel: accessVersionChannel, heard: () => reader.heard(), failed: () => reader.failed() },
    });
    const reader = notifiedVersionReader(own.pool, heldConnectionVersionReader(own.pool), { retryMs: 50 });
    const sessions = sessionChecker({ db: async () => own.db, cache: createAccessCache(() => reader.read()), idleMs: options.idleMs ?? 30 * 60_000 });
    const feed: Promise<LiveFeed> = Promise.resolve(startLiveFeed(database.pool, { pollMs: 60_000 }));
    let signedIn: SessionToken | null = null;
    const live: LiveSessions = {
      token: async () => signedIn,
      check: sessions.check,
      onAccessChange: options.notifications === false ? () => () => {} : reader.onHeard,
    };
    const route = createApiRoute({
      currentUser: async () => {
        const session = signedIn && (await sessions.use(signedIn));
        return session && "user" in session ? session.user : null;
      },
      log: quiet,
    })(liveStreamRoute(() => feed, live, options));
    const streams: AbortController[] = [];
    cleanups.push(async () => {
      for (const stream of streams) stream.abort();
      (await feed).close();
      reader.release();
      await own.close();
    });
    return {
      /** Opens a stream with `token`'s session; awaited before the next one (the session is the process's "cookie"). */
      async open(token: SessionToken) {
        signedIn = token;
        const aborted = new AbortController();
        streams.push(aborted);
        const response = await route(new Request("http://console.test/api/live", { signal: aborted.signal }));
        return { response, close: () => aborted.abort() };
      },
    };
  }

  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

  it.each([
    ["signed out", (token: SessionToken) => endSession(database.db, token.sid)],
    ["locked", (token: SessionToken) => updateStaff(database.db, token.sub, { locked: true })],
    ["removed", (token: SessionToken) => removeStaff(database.db, token.sub)],
  ])("ends an open stream within 5 s when its session is %s in another process, saying so", async (_, end) => {
    // The timer is a minute away: only the access-version notification can end the stream this fast.
    const server = consoleProcess({ checkMs: 60_000 });
    const token = await newSession();
    const { response } = await server.open(token);
    expect(response.status).toBe(200);
    await readEvents(response, (text) => text.includes("event: ready"));
    await end(token);
    const rest = await readEvents(response, (text) => text.includes("event: end"), 5_000);
    expect(rest.endsWith('event: end\ndata: {"reason":"ended"}\n\n')).toBe(true);
    expect(await response.body!.getReader().read()).toEqual({ done: true, value: undefined });
    expect((await server.open(token)).response.status).toBe(401);
  });

  it("ends every open stream with a retry hint and the reason restarting when its process stops, its session kept", async () => {
    const server = consoleProcess();
    const token = await newSession();
    const { response } = await server.open(token);
    await readEvents(response, (text) => text.includes("event: ready"));
    await runShutdownSteps(1_000);
    const rest = await readEvents(response, (text) => text.includes("event: end"), 5_000);
    expect(rest.endsWith('retry: 500\nevent: end\ndata: {"reason":"restarting"}\n\n')).toBe(true);
    expect(await response.body!.getReader().read()).toEqual({ done: true, value: undefined });
    expect(await findSession(database.db, token.sid)).not.toBeNull();
  });

  it("ends a stream on its own timer when its session goes idle, its checks not counting as use", async () => {
    const server = consoleProcess({ idleMs: 1_500, checkMs: 200, notifications: false });
    const token = await newSession();
    const { response } = await server.open(token);
    await readEvents(response, (text) => text.includes("event: ready"));
    const rest = await readEvents(response, (text) => text.includes("event: end"), 5_000);
    expect(rest.endsWith('event: end\ndata: {"reason":"idle"}\n\n')).toBe(true);
    expect(await findSession(database.db, token.sid)).toBeNull();
  });

  it(`refuses a stream past ${maxStreamsPerSession} per session and ${maxStreamsPerUser} per user with a 429 naming the cap`, async () => {
    const server = consoleProcess();
    const first = await newSession();
    const sessions = [first, await newSession(first.sub), await newSession(first.sub), await newSession(first.sub)];
    for (let opened = 0; opened < maxStreamsPerSession; opened++) expect((await server.open(first)).response.status).toBe(200);
    const pastSession = (await server.open(first)).response;
    expect(pastSession.status).toBe(429);
    expect(await errorOf(pastSession)).toEqual({
      code: "too_many_streams",
      message: `At most ${maxStreamsPerSession} live streams may be open per session; close a tab of the console.`,
    });
    let last;
    for (let opened = maxStreamsPerSession; opened < maxStreamsPerUser; opened++) {
      last = await server.open(sessions[Math.floor(opened / maxStreamsPerSession)]!);
      expect(last.response.status).toBe(200);
    }
    const pastUser = (await server.open(sessions[3]!)).response;
    expect(pastUser.status).toBe(429);
    expect((await errorOf(pastUser)).message).toBe(
      `At most ${maxStreamsPerUser} live streams may be open per staff user; close tabs of the console.`,
    );
    // Another user is not counted with this one, and a closed stream makes room.
    expect((await server.open(await newSession())).response.status).toBe(200);
    last!.close();
    expect((await server.open(sessions[3]!)).response.status).toBe(200);
  });

  it("limits how often one user opens streams (the liveOpen rate limit)", async () => {
    const server = consoleProcess();
    const token = await newSession();
    for (let opened = 0; opened < rateLimitRules.liveOpen.points; opened++) {
      const stream = await server.open(token);
      expect(stream.response.status).toBe(200);
      stream.close();
    }
    const refused = (await server.open(token)).response;
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
