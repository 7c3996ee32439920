import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import type { Permission, Role } from "@/lib/permissions";

/** A bank change as the proxy holds it: the exposed operation, its path parameters and its validated body. */
export interface HeldBankChange {
  environment: Environment;
  action: string;
  permission: Permission;
  operationId: string;
  method: string;
  /** The bank path, e.g. `/network_transfer/nt_1`. */
  path: string;
  params: Record<string, string>;
  targetId: string | null;
  body: unknown;
  /** What the change replaces, as the bank answered just now (already cut to what approvers may see). */
  before: unknown;
}

/** A change of bank credentials: a connection to save (its secret sealed while it waits), or `clear`. */
export type HeldCredentialsChange =
  | {
      environment: Environment;
      action: "credentials.save";
      baseUrl: string;
      auth: { type: "basic"; keyId: string; secret: string } | { type: "bearer"; token: string };
    }
  | { environment: Environment; action: "credentials.clear" };

/** A staff change held for another admin (docs/approvals.md, "Staff accounts"): a new account, or a role raised. */
export type HeldStaffChange =
  | { action: "staff.create"; user: { id: string; email: string; name: string; role: Role }; password: string | null }
  | { action: "staff.role_change"; user: StaffUser; role: Role };

/** A bank change as held, to read what it would replace now. */
export interface BankChangeAt {
  environment: Environment;
  operationId: string;
  params: Record<string, string>;
  body: unknown;
}

/** A credentials change as its request stores it (the secret sealed apart while it waits: sealed-payload.ts). */
export function credentialsBody(change: HeldCredentialsChange): Record<string, unknown> {
  return change.action === "credentials.clear"
    ? { clear: true }
    : change.auth.type === "basic"
      ? { baseUrl: change.baseUrl, authType: "basic", keyId: change.auth.keyId, secret: change.auth.secret }
      : { baseUrl: change.baseUrl, authType: "bearer", token: change.auth.token };
}

/** The credentials change a request holds, from its action and its payload with the secret unsealed. */
export function credentialsChange(environment: Environment, action: string, payload: Record<string, unknown>): HeldCredentialsChange {
  if (action === "credentials.clear") return { environment, action: "credentials.clear" };
  const auth =
    payload.authType === "bearer"
      ? { type: "bearer" as const, token: String(payload.token) }
      : { type: "basic" as const, keyId: String(payload.keyId), secret: String(payload.secret) };
  return { environment, action: "credentials.save", baseUrl: String(payload.baseUrl), auth };
}
