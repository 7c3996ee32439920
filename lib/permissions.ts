/**
 * The one table of who may do what in the console. Server code (pages, route handlers, server actions) checks it with
 * `can()` before acting; the UI uses the same function to hide or disable controls. Never check a role name directly.
 */

export const roles = ["admin", "operations", "compliance", "viewer"] as const;
export type Role = (typeof roles)[number];

export const permissions = [
  /** Read every bank object (personal data masked unless the role also has `pii:reveal`). */
  "bank:read",
  /** Edit the `userdata` of bank objects (e.g. a network transfer's userdata). */
  "bank:userdata:write",
  /** Create, enable, reset, disable and delete webhooks. */
  "webhook:write",
  /** Run sandbox simulations (only ever in the sandbox environment). */
  "simulation:run",
  /** Request card UX toolkit access tokens. */
  "card:token",
  /** See unmasked personal data on applications; every reveal is audited. */
  "pii:reveal",
  /** Read and export the audit trail. */
  "audit:read",
  /** Create staff users, change their role, lock and remove them. */
  "staff:manage",
  /** See which bank credentials are configured and save new ones. */
  "credentials:manage",
  /** Run the console's index of the bank: its receiver secret, subscriptions, backfill and purge (Settings). */
  "index:manage",
  /** Work the compliance review queue: assign, checklist, notes, propose a decision, download a case record. */
  "review:decide",
  /** Confirm or send back a decision another reviewer proposed (four-eyes; never one's own proposal). */
  "review:confirm",
  /**
   * Approve or reject a change someone else asked for, where four-eyes holds (docs/approvals.md); the approver must also
   * hold the permission the change itself needs. Never one's own request.
   */
  "change:approve",
  /** Switch four-eyes on changes on or off per environment. */
  "approvals:configure",
  /** Share a saved view of a list with every staff member (it then shows in everyone's sidebar). */
  "view:share",
  /**
   * Drive the sandbox bank (sandbox environment only): move objects to a state, advance its clock, add and remove
   * failures.
   */
  "sandbox:control",
  /** Reset the sandbox bank, download its snapshot (every object unmasked) and restore one. */
  "sandbox:reset",
] as const;
export type Permission = (typeof permissions)[number];

const table: Record<Role, readonly Permission[]> = {
  admin: permissions,
  operations: [
    "bank:read",
    "bank:userdata:write",
    "webhook:write",
    "simulation:run",
    "card:token",
    "change:approve",
    "view:share",
    "sandbox:control",
  ],
  compliance: ["bank:read", "pii:reveal", "audit:read", "review:decide", "review:confirm", "view:share"],
  viewer: ["bank:read"],
};

export const roleDescriptions: Record<Role, string> = {
  admin: "Everything, including staff users, bank credentials, the index of the bank and the sandbox bank's reset and snapshots",
  operations:
    "Read everything; edit userdata, manage webhooks, run simulations, drive the sandbox bank, request card tokens; approve another person's changes",
  compliance:
    "Read everything including unmasked personal data (audited); read the audit log; review applications and confirm another reviewer's decisions",
  viewer: "Read-only; personal data masked",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** Whether `role` holds `permission`. An unknown or missing role holds nothing. */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && isRole(role) && table[role].includes(permission);
}

/** Every permission a role holds, in the order of `permissions`. */
export function permissionsOf(role: Role): readonly Permission[] {
  return permissions.filter((permission) => table[role].includes(permission));
}
