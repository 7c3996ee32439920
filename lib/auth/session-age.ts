/**
 * Auth.js slides a JWT session's expiry forward on every use, which would let an active session live for ever. Staff
 * sessions end SESSION_MAX_AGE_HOURS after sign-in, however busy they are.
 */
export function sessionWithinMaxAge(signedInAtMs: number, nowMs: number, maxAgeHours: number): boolean {
  return nowMs - signedInAtMs <= maxAgeHours * 3_600_000;
}
