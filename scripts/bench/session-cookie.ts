import { demoUsers } from "@/lib/auth/demo-users";
import type { Role } from "@/lib/permissions";

/**
 * Signs in as the demo user of `role` through Auth.js's credentials endpoint, as the sign-in form does, and returns the
 * session cookie (`name=value`) for a benchmark's requests.
 */
export async function demoSessionCookie(consoleUrl: string, role: Role): Promise<string> {
  const user = demoUsers.find((demo) => demo.role === role)!;
  const csrfAnswer = await fetch(`${consoleUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfAnswer.json()) as { csrfToken: string };
  const csrfCookie = csrfAnswer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  const answer = await fetch(`${consoleUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ email: user.email, password: user.password, csrfToken }),
  });
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`sign-in as ${user.email} failed (HTTP ${answer.status})`);
  return session.split(";")[0]!;
}

/** The demo viewer's session cookie: the read-only benchmarks sign in as the viewer. */
export const viewerSessionCookie = (consoleUrl: string) => demoSessionCookie(consoleUrl, "viewer");
