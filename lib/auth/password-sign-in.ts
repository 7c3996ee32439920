import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { isStorableText } from "@/lib/contract/json-text";
import type { ConsoleDatabase } from "@/lib/db/console";
import { metrics } from "@/lib/metrics/registry";
import { clientAddress } from "./client-address";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import { findStaffByEmail, normalizeEmail, replacePasswordHash } from "./staff-users";
import type { StaffUser } from "./staff-user";
import { addressKey, admitAttempt, clearAttempts, perAddressRule, perUserRule, refundAttempt, userKey } from "./throttle";

/** Text PostgreSQL cannot keep (NUL, unpaired surrogates) is no one's email or password: refused before the throttle. */
const credentialsInput = z.object({
  email: z.string().trim().min(1).max(320).refine(isStorableText),
  password: z.string().min(1).max(1024).refine(isStorableText),
});

export interface PasswordSignInDependencies {
  db(): Promise<ConsoleDatabase["db"]>;
  trustedProxies: readonly string[];
  /** The password check; a test counts its calls. */
  verify?: typeof verifyPassword;
  /** How long a refused attempt is held before its answer (the same for real and unknown emails). */
  refusalDelayMs?: number;
  /** The throttle's clock; a test stops it so that a slow machine does not let a delay run out mid-test. */
  now?: () => Date;
}

/** The attempt was refused by the throttle before any password was checked. */
export class SignInThrottled extends Error {
  constructor() {
    super("Too many failed sign-ins");
  }
}

/** A wrong email, password or a locked user, counted for console_sign_in_failures_total (docs/operations.md). */
function refused(): null {
  metrics.signInFailures.inc({ reason: "refused" });
  return null;
}

/**
 * Checks an email and password, behind the throttle: the attempt is counted for the client's address and for the
 * email (whether or not a user has it) before the user is read or any hash computed. Null for a wrong email, password
 * or a locked user, all alike; throws SignInThrottled, after a pause, when the throttle refuses.
 */
export function passwordSignIn(dependencies: PasswordSignInDependencies) {
  const verify = dependencies.verify ?? verifyPassword;
  const refusalDelayMs = dependencies.refusalDelayMs ?? 1000;
  const now = dependencies.now ?? (() => new Date());
  return async function authorize(raw: Partial<Record<string, unknown>>, request: Request): Promise<StaffUser | null> {
    const input = credentialsInput.safeParse(raw);
    if (!input.success) return refused();
    const db = await dependencies.db();
    const email = normalizeEmail(input.data.email);
    const address = clientAddress(request.headers.get("x-forwarded-for"), dependencies.trustedProxies);
    const admitted =
      (await admitAttempt(db, addressKey(address), perAddressRule, now())) && (await admitAttempt(db, userKey(email), perUserRule, now()));
    if (!admitted) {
      // Slow, so refusals cost a guesser as much time as checks; the same for every email, so it tells nothing.
      metrics.signInFailures.inc({ reason: "throttled" });
      await sleep(refusalDelayMs);
      throw new SignInThrottled();
    }
    const user = await findStaffByEmail(db, email);
    const valid = await verify(input.data.password, user?.passwordHash ?? null);
    if (!user || !valid || user.locked) return refused();
    // A hash made at an older cost is replaced now, while the password is at hand (it is never stored otherwise).
    if (needsRehash(user.passwordHash!)) await replacePasswordHash(db, user.id, user.passwordHash!, await hashPassword(input.data.password));
    await clearAttempts(db, userKey(email), perUserRule, now());
    await refundAttempt(db, addressKey(address));
    return { id: user.id, email: user.email, name: user.name, role: user.role, locked: user.locked };
  };
}
