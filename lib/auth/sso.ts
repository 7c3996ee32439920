import { and, eq, isNull } from "drizzle-orm";
import * as schema from "@/lib/db/console-schema";
import { normalizeEmail } from "./staff-users";
import { publicColumns, type StaffUser } from "./staff-user";
import type { ConsoleDb } from "@/lib/db/console-db";

const { staffUsers } = schema;

/** What the identity provider says about the person signing in (its ID token claims). */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  email: unknown;
  emailVerified: unknown;
}

/**
 * The staff user a single sign-on is for, or null to refuse it. Only an address the provider has verified counts:
 * an unverified one may belong to anyone who typed it. The first sign-in binds the staff user with that email to the
 * provider's subject (`sub`, stable for the person); from then on the subject decides, so another provider account that
 * later shows the same address cannot take the staff user over, and a renamed address keeps working. Locked users
 * are refused; the console's own table decides the role.
 */
export async function ssoStaffUser(db: ConsoleDb, identity: SsoIdentity): Promise<StaffUser | null> {
  if (identity.emailVerified !== true || !identity.subject) return null;
  const subject = `${identity.issuer} ${identity.subject}`;
  const [bound] = await db.select(publicColumns).from(staffUsers).where(eq(staffUsers.ssoSubject, subject));
  if (bound) return bound.locked ? null : bound;
  if (typeof identity.email !== "string") return null;
  // Binds in one statement, only a user not bound yet: two first sign-ins at once cannot both win.
  const [binding] = await db
    .update(staffUsers)
    .set({ ssoSubject: subject })
    .where(and(eq(staffUsers.email, normalizeEmail(identity.email)), isNull(staffUsers.ssoSubject), eq(staffUsers.locked, false)))
    .returning(publicColumns);
  return binding ?? null;
}
