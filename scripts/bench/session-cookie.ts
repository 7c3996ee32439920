import { demoUsers } from "@/lib/auth/demo-users";

const viewer = demoUsers.find((user) => user.role === "viewer")!;

/**
 * Signs in as the demo viewer through Auth.js's credentials endpoint, as the sign-in form does, and returns the session
 * cookie (`name=value`) for a benchmark's requests.
 */
export async function viewerSessionCookie(consoleUrl: string): Promise<string> {
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
    body: new URLSearchParams({ email: viewer.email, password: viewer.password, csrfToken }),
  });
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`sign-in as ${viewer.email} failed (HTTP ${answer.status})`);
  return session.split(";")[0]!;
}
