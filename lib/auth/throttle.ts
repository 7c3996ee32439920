/**
 * Slows down repeated failed sign-ins. Each key (one per email, one per client IP) may fail `freeFailures` times
 * within `windowMs`; after that every further attempt must wait a delay that doubles with each failure, up to
 * `maxDelayMs`. A success clears the key. Kept in memory: the console is one server process, and a restart forgetting
 * the counters only gives an attacker a few more guesses.
 */
export interface ThrottleRule {
  freeFailures: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

interface Failures {
  count: number;
  last: number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds the caller must still wait before `key` may try again; 0 when it may try now. */
  waitFor(key: string): number {
    const entry = this.current(key);
    if (!entry || entry.count < this.rule.freeFailures) return 0;
    const delay = Math.min(this.rule.baseDelayMs * 2 ** (entry.count - this.rule.freeFailures), this.rule.maxDelayMs);
    return Math.max(0, entry.last + delay - this.now());
  }

  recordFailure(key: string): void {
    const entry = this.current(key);
    this.failures.set(key, { count: (entry?.count ?? 0) + 1, last: this.now() });
    if (this.failures.size > 10_000) this.forgetExpired();
  }

  recordSuccess(key: string): void {
    this.failures.delete(key);
  }

  private current(key: string): Failures | undefined {
    const entry = this.failures.get(key);
    if (entry && this.now() - entry.last > this.rule.windowMs) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private forgetExpired(): void {
    for (const key of [...this.failures.keys()]) this.current(key);
  }
}

const minute = 60_000;

/** Per email: 5 free failures in 15 minutes, then 5 s, 10 s, 20 s ... up to 15 minutes between attempts. */
export const perUserRule: ThrottleRule = { freeFailures: 5, windowMs: 15 * minute, baseDelayMs: 5000, maxDelayMs: 15 * minute };
/** Per client IP: more generous (several staff may share an office address), same growth. */
export const perIpRule: ThrottleRule = { freeFailures: 30, windowMs: 15 * minute, baseDelayMs: 5000, maxDelayMs: 15 * minute };
