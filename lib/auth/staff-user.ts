import { staffUsers } from "@/lib/db/console-schema";
import type { Role } from "@/lib/permissions";

/** A staff member as every part of the console sees them: never their password hash or SSO subject. */
export interface StaffUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  locked: boolean;
}

/** The columns of a StaffUser, for every query that returns one. */
export const publicColumns = { id: staffUsers.id, email: staffUsers.email, name: staffUsers.name, role: staffUsers.role, locked: staffUsers.locked };
