import "server-only";
import { cookies, headers } from "next/headers";
import { decode, type JWT } from "next-auth/jwt";
import { env } from "@/lib/env/console";

/**
 * The signed-in session's token, read from the session cookie without running all of Auth.js: `auth()` decrypts the
 * cookie, then re-encrypts and re-sets it on every call (a sliding expiry, which the server-side session overrides
 * anyway: a session ends SESSION_MAX_AGE_HOURS after sign-in, lib/auth/sessions.ts), and was the console's largest CPU cost per request
 * (docs/benchmarks.md). Decrypting is deterministic, so decoded tokens are kept by their cookie value; the token's
 * own expiry is checked on every request. The token holds only ids and a time, far below the 4 KB at which Auth.js
 * would split the cookie into chunks, so one cookie is read.
 */

interface SessionToken {
  /** The staff user's id. */
  sub: string;
  /** The server-side session's id (lib/auth/sessions.ts). */
  sid: string;
}

// Auth.js names the cookie by whether the console is reached over https, and salts the key with the cookie's name.
const cookieName = (secure: boolean) => `${secure ? "__Secure-" : ""}authjs.session-token`;

/** Bounded: a flood of forged cookies can cost decryptions, never memory. */
const maxDecoded = 10_000;
const decoded = new Map<string, Promise<JWT | null>>();

function decodeOnce(token: string, salt: string): Promise<JWT | null> {
  const key = `${salt}\u0000${token}`;
  let entry = decoded.get(key);
  if (!entry) {
    if (decoded.size >= maxDecoded) decoded.delete(decoded.keys().next().value!);
    if (!env.AUTH_SECRET) throw new Error("AUTH_SECRET is not set: sessions cannot be read");
    entry = decode({ token, salt, secret: env.AUTH_SECRET }).catch(() => null);
    decoded.set(key, entry);
  }
  return entry;
}

/** The session cookie's staff id and session id, or null when absent, forged, expired or of another format. */
export async function readSessionToken(): Promise<SessionToken | null> {
  const name = cookieName((await headers()).get("x-forwarded-proto") === "https");
  const token = (await cookies()).get(name)?.value;
  if (!token) return null;
  const payload = await decodeOnce(token, name);
  if (!payload || typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
  if (typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now()) return null;
  return { sub: payload.sub, sid: payload.sid };
}
