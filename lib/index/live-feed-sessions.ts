import { ConsoleError } from "@/lib/api/errors";
import type { SessionToken } from "@/lib/auth/session-token";
import type { SessionCheck, SessionEnd } from "@/lib/auth/sessions";
import { metrics } from "@/lib/metrics/registry";

/** What the live route needs of the console's sessions (lib/index/live-feed-runtime.ts wires the real ones). */
export interface LiveSessions {
  /** The request's session cookie, decoded (the route wrapper has already let its user in). */
  token(): Promise<SessionToken | null>;
  /** Whether the session still lets its user in; not a use of the session (an open stream keeps no one signed in). */
  check(token: SessionToken): Promise<SessionCheck>;
  /** Calls `listener` whenever access may have changed (an access-version notification); returns how to stop. */
  onAccessChange(listener: () => void): () => void;
}

export interface LiveSessionLimits {
  /** Open streams are checked against their sessions at least this often, besides on every access change. */
  checkMs?: number;
  /** Open streams per session (a tab holds one) and per staff user (all their sessions). */
  maxPerSession?: number;
  maxPerUser?: number;
}

/** Checked at least every 2 s: a stream outlives its session by at most that when no notification arrives. */
export const liveCheckMs = 2_000;
export const maxStreamsPerSession = 6;
export const maxStreamsPerUser = 20;

/**
 * Why a stream ends: its session ended (the client signs in again), `restarting` (this console process is stopping:
 * the client reconnects at once, to another instance behind the load balancer), or null when the session could not be
 * checked (the client reconnects).
 */
export type StreamEnd = SessionEnd | "restarting";

/** An open stream's end, with its reason. */
export type EndStream = (reason: StreamEnd | null) => void;

export interface LiveSessionWatch {
  /**
   * Counts a new stream of `token`'s session, refused with a 429 naming the cap past it; `end` is called once its
   * session ends. Returns how to stop counting it.
   */
  admit(token: SessionToken, end: EndStream): () => void;
  /** Ends every open stream with `reason` (the process is stopping). */
  endAll(reason: StreamEnd): void;
}

/**
 * The open streams of this process by session: each session with open streams is checked once per `checkMs` and on
 * every access-version notification (sign-out, lock, removal, a role change in any console process), one check per
 * session however many streams it has. A session that ended ends its streams; a check that fails (the database not
 * reachable) ends them without a reason, failing closed: the client reconnects and is let in only once its session
 * can be read again.
 */
export function watchLiveSessions(sessions: LiveSessions, limits: LiveSessionLimits = {}): LiveSessionWatch {
  const checkMs = limits.checkMs ?? liveCheckMs;
  const maxPerSession = limits.maxPerSession ?? maxStreamsPerSession;
  const maxPerUser = limits.maxPerUser ?? maxStreamsPerUser;
  const bySession = new Map<string, { token: SessionToken; ends: Set<EndStream> }>();
  const perUser = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopListening: (() => void) | undefined;
  let checking: Promise<void> | undefined;
  let checkAgain = false;

  async function checkAll(): Promise<void> {
    await Promise.all(
      [...bySession.values()].map(async ({ token, ends }) => {
        const verdict = await sessions.check(token).catch(() => ({ ended: null }));
        if ("ended" in verdict) for (const end of [...ends]) end(verdict.ended);
      }),
    );
  }

  /** Checks now, or right after the check in progress (a notification during it may be for a later commit). */
  function wake(): void {
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = (async () => {
      do {
        checkAgain = false;
        await checkAll();
      } while (checkAgain);
    })().finally(() => (checking = undefined));
  }

  return {
    endAll(reason) {
      for (const { ends } of [...bySession.values()]) for (const end of [...ends]) end(reason);
    },
    admit(token, end) {
      const session = bySession.get(token.sid);
      if ((session?.ends.size ?? 0) >= maxPerSession) {
        throw new ConsoleError(429, "too_many_streams", `At most ${maxPerSession} live streams may be open per session; close a tab of the console.`);
      }
      const ofUser = perUser.get(token.sub) ?? 0;
      if (ofUser >= maxPerUser) {
        throw new ConsoleError(429, "too_many_streams", `At most ${maxPerUser} live streams may be open per staff user; close tabs of the console.`);
      }
      if (bySession.size === 0) {
        timer = setInterval(wake, checkMs);
        timer.unref();
        stopListening = sessions.onAccessChange(wake);
      }
      const ends = session?.ends ?? new Set<EndStream>();
      if (!session) bySession.set(token.sid, { token, ends });
      ends.add(end);
      perUser.set(token.sub, ofUser + 1);
      metrics.liveConnections.inc();
      let counted = true;
      return () => {
        if (!counted) return;
        counted = false;
        metrics.liveConnections.dec();
        ends.delete(end);
        if (ends.size === 0) bySession.delete(token.sid);
        const left = (perUser.get(token.sub) ?? 1) - 1;
        if (left === 0) perUser.delete(token.sub);
        else perUser.set(token.sub, left);
        if (bySession.size === 0) {
          clearInterval(timer);
          stopListening?.();
        }
      };
    },
  };
}
