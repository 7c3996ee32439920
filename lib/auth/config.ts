import "server-only";
import { headers } from "next/headers";
import NextAuth, { CredentialsSignin, type NextAuthConfig, type Profile } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { log } from "@/lib/log";
import { clientAddress } from "./client-address";
import { passwordSignIn, SignInThrottled } from "./password-sign-in";
import { createSession, endSession } from "./sessions";
import { ssoStaffUser } from "./sso";
import { safeRedirectUrl } from "./safe-redirect";

/**
 * Auth.js (next-auth v5): staff sign in with email + password (Credentials against console.staff_users) and, when
 * OIDC_ISSUER/OIDC_CLIENT_ID/OIDC_CLIENT_SECRET are set, through the bank's single sign-on (only existing staff users,
 * lib/auth/sso.ts). The session cookie is a signed JWT holding only the staff user's id and a server-side session id
 * (lib/auth/sessions.ts), checked on every request, so sign-out, a lock, a role change or removal apply at once.
 */

/** Too many failed sign-ins; the code reaches the sign-in page (it reveals nothing about the account). */
export class ThrottledSignin extends CredentialsSignin {
  code = "throttled";
}

const authorizePassword = passwordSignIn({ db: async () => (await consoleDb()).db, trustedProxies: env.TRUSTED_PROXIES });

async function authorizeWithPassword(raw: Partial<Record<string, unknown>>, request: Request) {
  try {
    const user = await authorizePassword(raw, request);
    return user && { id: user.id, email: user.email, name: user.name };
  } catch (error) {
    if (error instanceof SignInThrottled) throw new ThrottledSignin();
    throw error;
  }
}

const ssoIdentity = (subject: string, profile: Profile | undefined) => ({
  issuer: env.OIDC_ISSUER ?? "",
  subject,
  email: profile?.email,
  emailVerified: profile?.email_verified,
});

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
    // Single sign-on admits only existing, unlocked staff users, by verified email once and by subject after that
    // (lib/auth/sso.ts); the console's own table decides the role.
    async signIn({ account, profile }) {
      if (account?.provider !== "oidc") return true;
      return Boolean(await ssoStaffUser((await consoleDb()).db, ssoIdentity(account.providerAccountId, profile)));
    },
    // On sign-in, a server-side session is created (lib/auth/sessions.ts); the token holds only the staff id and the
    // session's id, and the session is live only while its row exists.
    async jwt({ token, user, account, profile }) {
      if (!user) return token;
      const db = (await consoleDb()).db;
      const staffId = account?.provider === "oidc" ? (await ssoStaffUser(db, ssoIdentity(account.providerAccountId, profile)))?.id : user.id;
      if (!staffId) return null;
      const request = await headers();
      const session = await createSession(db, {
        userId: staffId,
        maxAgeMs: env.SESSION_MAX_AGE_HOURS * 3_600_000,
        userAgent: request.get("user-agent"),
        address: clientAddress(request.get("x-forwarded-for"), env.TRUSTED_PROXIES),
      });
      return { sub: staffId, sid: session.id };
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      // The id alone is useless to anyone who reads it: requests are let in only with the signed cookie that holds it.
      if (typeof token.sid === "string") session.sessionId = token.sid;
      return session;
    },
  },
  events: {
    // Sign-out ends the session itself, not just the cookie: a copy of the cookie is refused from now on.
    async signOut(message) {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await endSession((await consoleDb()).db, sid);
    },
  },
};

declare module "next-auth" {
  interface Session {
    /** The server-side session (lib/auth/sessions.ts). */
    sessionId?: string;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);
