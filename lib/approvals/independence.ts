import { eq } from "drizzle-orm";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";

const { staffUsers } = schema;

/**
 * Four-eyes is between people, not accounts (docs/approvals.md, "Who may approve"): an account created by the person who
 * asked, or whose role that person last changed, is that person's second pair of eyes in name only. The one check used
 * by change approvals (bank, credentials, the setting, staff) and review confirmations. Returns why `deciderId` may not
 * approve or confirm what `asker` asked for, in words; null when it may.
 */
export async function sponsoredRefusal(db: ConsoleDb, deciderId: string, asker: { id: string; email: string }): Promise<string | null> {
  const [decider] = await db
    .select({ createdBy: staffUsers.createdBy, roleChangedBy: staffUsers.roleChangedBy })
    .from(staffUsers)
    .where(eq(staffUsers.id, deciderId));
  const how = decider?.createdBy === asker.id ? "created" : decider?.roleChangedBy === asker.id ? "last changed the role of" : null;
  return how
    ? `${asker.email}, who asked for this, ${how} your account; someone whose account they did not create or promote must decide it (four-eyes)`
    : null;
}
