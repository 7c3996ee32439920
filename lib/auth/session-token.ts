import "server-only";
import { cookies, headers } from "next/headers";
import { decode as decodeJwt, type JWT } from "next-auth/jwt";
import { env } from "@/lib/env/console";

/**
 * The signed-in session's token, read from the session cookie without running all of Auth.js: `auth()` decrypts the
 * cookie, then re-encrypts and re-sets it on every call (a sliding expiry, which the server-side session overrides
 * anyway: a session ends SESSION_MAX_AGE_HOURS after sign-in, lib/auth/sessions.ts), and was the console's largest CPU cost per request
 * (docs/benchmarks.md). Decrypting is deterministic, so decoded tokens are kept by their cookie value; the token's
 * own expiry is checked on every request. The token holds only ids and a time, far below the 4 KB at which Auth.js
 * would split the cookie into chunks, so one cookie is read.
 */

export interface SessionToken {
  /** The staff user's id. */
  sub: string;
  /** The server-side session's id (lib/auth/sessions.ts). */
  sid: string;
}

// Auth.js names the cookie by whether the console is reached over https, and salts the key with the cookie's name.
const cookieName = (secure: boolean) => `${secure ? "__Secure-" : ""}authjs.session-token`;

/**
 * The longest session cookie read: the console issues ~480 characters (a JWE of the staff id, the session id and
 * Auth.js's iat, exp and jti). A longer one is forged or of another format and is refused unread: neither decrypted
 * nor kept.
 */
export const maxSessionTokenChars = 1024;
/** What the cache of decoded tokens may hold: their cookie values, plus a fixed charge per entry for the decoded token. */
export const maxDecodedChars = 4 * 1024 * 1024;
const entryOverheadChars = 512;

export interface TokenDecoder {
  /** The token's claims; null when it is too long, cannot be decrypted with the secret, or is not a JWT. */
  decode(token: string, salt: string): Promise<JWT | null>;
  /** What the cache holds now, in entries and charged characters. */
  cached(): { entries: number; chars: number };
}

/**
 * Decodes session cookies once each, keeping the answers by cookie value, bounded by size (oldest dropped first):
 * a flood of forged cookies costs decryptions, never more memory than the bound.
 */
export function createTokenDecoder(options: { secret: () => string | undefined; decode?: typeof decodeJwt; maxChars?: number }): TokenDecoder {
  const decode = options.decode ?? decodeJwt;
  const maxChars = options.maxChars ?? maxDecodedChars;
  const decoded = new Map<string, Promise<JWT | null>>();
  let chars = 0;
  const charge = (key: string) => key.length + entryOverheadChars;

  return {
    decode(token, salt) {
      if (token.length > maxSessionTokenChars) return Promise.resolve(null);
      const key = `${salt}\u0000${token}`;
      let entry = decoded.get(key);
      if (!entry) {
        const secret = options.secret();
        if (!secret) throw new Error("AUTH_SECRET is not set: sessions cannot be read");
        while (decoded.size > 0 && chars + charge(key) > maxChars) {
          const oldest = decoded.keys().next().value!;
          decoded.delete(oldest);
          chars -= charge(oldest);
        }
        entry = decode({ token, salt, secret }).catch(() => null);
        decoded.set(key, entry);
        chars += charge(key);
      }
      return entry;
    },
    cached: () => ({ entries: decoded.size, chars }),
  };
}

const decoder = createTokenDecoder({ secret: () => env.AUTH_SECRET });

/** The session cookie's staff id and session id, or null when absent, forged, expired or of another format. */
export async function readSessionToken(): Promise<SessionToken | null> {
  const name = cookieName((await headers()).get("x-forwarded-proto") === "https");
  const token = (await cookies()).get(name)?.value;
  if (!token) return null;
  const payload = await decoder.decode(token, name);
  if (!payload || typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
  if (typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now()) return null;
  return { sub: payload.sub, sid: payload.sid };
}
