import "server-only";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { log } from "@/lib/log";
import { verifyPassword } from "./password";
import { safeRedirectUrl } from "./safe-redirect";
import { findStaffByEmail } from "./staff-users";
import { perIpRule, perUserRule, SignInThrottle } from "./throttle";

/**
 * Auth.js (next-auth v5): staff sign in with email + password (Credentials against console.staff_users) and, when
 * OIDC_ISSUER/OIDC_CLIENT_ID/OIDC_CLIENT_SECRET are set, through the bank's single sign-on (only for emails that
 * already exist as staff users). The session is a signed JWT holding only the staff user's id; every request re-reads
 * the user (lib/auth/current-user.ts), so a role change, lock or removal applies at once.
 */

/** Too many failed sign-ins; the code reaches the sign-in page (it reveals nothing about the account). */
export class ThrottledSignin extends CredentialsSignin {
  code = "throttled";
}

const userThrottle = new SignInThrottle(perUserRule);
const ipThrottle = new SignInThrottle(perIpRule);

const credentialsInput = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

// Next.js fills x-forwarded-for from the socket only when the request has none, so without a reverse proxy that
// overwrites it a client can pick its own IP key; the per-email limit holds regardless.
function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip") || "unknown";
}

async function authorizeWithPassword(raw: Partial<Record<string, unknown>>, request: Request) {
  const input = credentialsInput.safeParse(raw);
  if (!input.success) return null;
  const userKey = `user:${input.data.email.toLowerCase()}`;
  const ipKey = `ip:${clientIp(request)}`;
  if (userThrottle.waitFor(userKey) > 0 || ipThrottle.waitFor(ipKey) > 0) throw new ThrottledSignin();

  const db = (await consoleDb()).db;
  const user = await findStaffByEmail(db, input.data.email);
  const valid = await verifyPassword(input.data.password, user?.passwordHash ?? null);
  if (!user || !valid || user.locked) {
    userThrottle.recordFailure(userKey);
    ipThrottle.recordFailure(ipKey);
    return null;
  }
  userThrottle.recordSuccess(userKey);
  return { id: user.id, email: user.email, name: user.name };
}

const oidcEnabled = Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET);

export const oidcProvider = oidcEnabled ? { id: "oidc", name: env.OIDC_NAME } : null;

const config: NextAuthConfig = {
  // The console is reached through whatever host the operator gives it (127.0.0.1 by default, or a reverse proxy).
  trustHost: true,
  session: { strategy: "jwt", maxAge: Math.round(env.SESSION_MAX_AGE_HOURS * 3600) },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  // A wrong password is an expected event, not an error with a stack trace; everything else goes to the log.
  logger: {
    error(error) {
      if (error instanceof CredentialsSignin) return;
      log.error({ err: { name: error.name, message: error.message } }, "auth error");
    },
    warn(code) {
      log.warn({ code }, "auth warning");
    },
  },
  providers: [
    Credentials({
      id: "credentials",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: authorizeWithPassword,
    }),
    ...(oidcEnabled
      ? [
          {
            id: "oidc",
            name: env.OIDC_NAME,
            type: "oidc" as const,
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
          },
        ]
      : []),
  ],
  callbacks: {
    // Every redirect Auth.js makes (after sign-in, sign-out, a refused sign-in) goes through the console's one rule.
    redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl);
    },
    // Single sign-on admits only existing, unlocked staff users; the console's own table decides the role.
    async signIn({ user, account }) {
      if (account?.provider !== "oidc") return true;
      const staff = user.email ? await findStaffByEmail((await consoleDb()).db, user.email) : null;
      return Boolean(staff && !staff.locked);
    },
    // The token holds only the staff id and when this session began (lib/auth/current-user.ts compares it with a
    // lock). Auth.js re-issues the cookie with a fresh `iat` on use, hence our own `signedInAtMs`. Milliseconds, like
    // the lock's time: in whole seconds, a sign-in in the same second as an unlock would count as before the lock.
    async jwt({ token, user, account }) {
      if (!user) return token;
      const signedInAtMs = Date.now();
      if (account?.provider === "oidc") {
        const staff = user.email ? await findStaffByEmail((await consoleDb()).db, user.email) : null;
        return { sub: staff?.id, signedInAtMs };
      }
      return { sub: user.id, signedInAtMs };
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      if (typeof token.signedInAtMs === "number") session.signedInAtMs = token.signedInAtMs;
      return session;
    },
  },
};

declare module "next-auth" {
  interface Session {
    /** Milliseconds since the epoch when this session signed in. */
    signedInAtMs?: number;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);
