import type { Environment } from "@/lib/credentials/environments";
import { can, permissionsOf, type Permission, type Role } from "@/lib/permissions";

/**
 * Four-eyes on changes (docs/approvals.md): the vocabulary shared by the server and the pages. Safe for the browser.
 */

/** What a list shows: `expired` is a pending request past its `expiresAt` (it can no longer be approved). */
export const approvalStatuses = ["pending", "approved", "rejected", "withdrawn", "expired"] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export const approvalStatusLabels: Record<ApprovalStatus, string> = {
  pending: "Awaiting approval",
  approved: "Approved",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
  expired: "Expired",
};

export function isApprovalStatus(value: unknown): value is ApprovalStatus {
  return typeof value === "string" && (approvalStatuses as readonly string[]).includes(value);
}

/** With no admin setting saved: off in the sandbox, on in production. */
export const defaultApprovalRequired: Record<Environment, boolean> = { sandbox: false, production: true };

/**
 * Where switching four-eyes off is itself a change held for a second admin: production, so that no one person can
 * lift the control and then change production alone. Switching it on, and either switch in the sandbox, apply at once.
 */
export const switchingOffNeedsApproval: Record<Environment, boolean> = { sandbox: false, production: true };

/**
 * Staff accounts are the console's, not an environment's; production's setting governs them, since an account made
 * to approve is an approver in production. Where it holds, creating an account with an approving permission and a role
 * change that adds any permission are held for another admin (docs/approvals.md, "Staff accounts").
 */
export const staffChangesEnvironment: Environment = "production";
export const approvingPermissions = ["change:approve", "review:confirm", "approvals:configure"] as const satisfies readonly Permission[];

/** Whether a staff change waits for another admin where four-eyes holds: `from` null is a new account. */
export function staffChangeHeld(from: Role | null, to: Role): boolean {
  return from === null
    ? approvingPermissions.some((permission) => can(to, permission))
    : permissionsOf(to).some((permission) => !can(from, permission));
}

/** What a request changes: a bank object, the bank credentials, the four-eyes setting itself, a staff account, or many bank objects at once (lib/bulk). */
export type ChangeKind = "bank" | "credentials" | "setting" | "staff" | "bulk";

/** Fields of a held change that are secrets (a new staff user's password among them): sealed apart while the request waits, never shown. */
export const secretFields = ["basic_secret", "secret", "token", "password"] as const;
/** What a page shows in place of a secret the change carries. */
export const secretShown = "[secret, not shown]";

export const approvalNoteLimit = 1000;

/** The proxy's answer to a change held for approval (HTTP 202). */
export interface ApprovalAnswer {
  approval: { id: number; status: "pending"; expiresAt: string; url: string };
}

/** The HTTP answer for a change held for approval: 202, the request, and where it is shown. */
export const heldAnswer = (answer: ApprovalAnswer) => Response.json(answer, { status: 202, headers: { location: answer.approval.url } });

export function isApprovalAnswer(value: unknown): value is ApprovalAnswer {
  if (!value || typeof value !== "object" || !("approval" in value)) return false;
  const approval = (value as { approval: unknown }).approval;
  return !!approval && typeof approval === "object" && typeof (approval as { id?: unknown }).id === "number";
}

export const approvalUrl = (id: number) => `/approvals/${id}`;

/** What each held action is, in words, for lists and the request page. */
export const actionLabels: Record<string, string> = {
  "network_transfer.userdata.update": "Edit a network transfer's userdata",
  "webhook.create": "Create a webhook",
  "webhook.update": "Change a webhook",
  "webhook.delete": "Delete a webhook",
  "credentials.save": "Save bank credentials",
  "credentials.clear": "Remove saved bank credentials",
  "approvals.setting": "Turn four-eyes off",
  "staff.create": "Create a staff user who may approve",
  "staff.role_change": "Raise a staff user's role",
  "bulk.userdata.set": "Set a userdata key on many network transfers",
  "bulk.userdata.remove": "Remove a userdata key from many network transfers",
  "bulk.webhook.enable": "Enable many webhooks",
  "bulk.webhook.disable": "Disable many webhooks",
  "bulk.webhook.reset": "Reset many webhooks",
};

export const actionLabel = (action: string) => actionLabels[action] ?? action;

/** The badge tone of each status (lib/format's tones). */
export const approvalStatusTones = {
  pending: "warning",
  approved: "success",
  rejected: "danger",
  withdrawn: "neutral",
  expired: "neutral",
} as const satisfies Record<ApprovalStatus, "success" | "warning" | "danger" | "neutral" | "info">;

/** The bank object a held action is about, for its link (`network_transfer.userdata.update` → `network_transfer`). */
export function resourceOfAction(action: string): "network_transfer" | "webhook" | null {
  const prefix = action.split(".")[0];
  return prefix === "network_transfer" || prefix === "webhook" ? prefix : null;
}
