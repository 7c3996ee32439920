import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { ConsoleError } from "./errors";

/**
 * The console's rate limits, one named rule per kind of request, kept per console process in memory
 * (rate-limiter-flexible's RateLimiterMemory). With several console processes behind a load balancer each keeps its
 * own count, so the effective limit is the rule times the number of processes; that still bounds what one cookie or
 * one forged sender can make a process do, which is what these limits are for (a person working never meets them).
 */
export const rateLimitRules = {
  /** `/api/search`: the recorded search, one per pause in typing (or Enter); 60 a minute is far above a person. */
  search: { points: 60, duration: 60 },
  /**
   * `/api/search?preview=1`: the box asks for one while the person types (public fields, never recorded), so a name of
   * 15 letters can be 15 previews; ten a second keeps a fast typist's searches all day, apart from the recorded ones.
   */
  searchPreview: { points: 600, duration: 60 },
  /** `/api/names`: one lookup per page of ids shown. */
  names: { points: 300, duration: 60 },
  /** `/api/index-list/*` and their counts. */
  indexList: { points: 240, duration: 60 },
  /** Filters and counts on fields a role may see unmasked (audited): guessing a number must be slow. */
  maskedFilter: { points: 20, duration: 60 },
  /**
   * `/api/live`: opening a stream (every page load opens one; a reconnect counts as one). Five a second: above a person
   * and the e2e suite's sweeps over every page; what is open at once is capped apart (lib/index/live-feed-sessions.ts).
   */
  liveOpen: { points: 300, duration: 60 },
  /**
   * The sandbox bank's reset, snapshot download and restore through the console (`/api/sandbox/...`): each replaces or
   * copies the whole bank and rebuilds the console's index of it; one every two seconds is above a person or a test run.
   */
  sandboxReset: { points: 30, duration: 60 },
  /** The bank-events receiver, per environment: above the bank's steady rate (bench:events runs 200/s). */
  receiver: { points: 3000, duration: 10 },
} as const satisfies Record<string, { points: number; duration: number }>;

export type RateLimitName = keyof typeof rateLimitRules;

const limiters = new Map<RateLimitName, RateLimiterMemory>();

function limiterOf(name: RateLimitName): RateLimiterMemory {
  let limiter = limiters.get(name);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: name, ...rateLimitRules[name] });
    limiters.set(name, limiter);
  }
  return limiter;
}

export type RateLimitOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Takes one request from `key`'s allowance under rule `name`; refused when the allowance is spent. */
export async function consumeRateLimit(name: RateLimitName, key: string): Promise<RateLimitOutcome> {
  try {
    await limiterOf(name).consume(key);
    return { allowed: true };
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
    throw refusal;
  }
}

/** A 429 that says when to try again; route handlers answer it with a `Retry-After` header (lib/api/route.ts). */
export class RateLimitedError extends ConsoleError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "rate_limited", `Too many requests; try again in ${retryAfterSeconds} s.`);
  }

  override toResponse(): Response {
    return super.toResponse({ "Retry-After": String(this.retryAfterSeconds) });
  }
}

/** Throws a RateLimitedError when `key` has spent its allowance under rule `name`. */
export async function enforceRateLimit(name: RateLimitName, key: string): Promise<void> {
  const outcome = await consumeRateLimit(name, key);
  if (!outcome.allowed) throw new RateLimitedError(outcome.retryAfterSeconds);
}

/** Forgets every count (tests that exercise a limit start from a full allowance). */
export function resetRateLimits(): void {
  limiters.clear();
}
