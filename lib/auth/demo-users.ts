import type { Role } from "@/lib/permissions";

/**
 * One demo staff user per role, and a second admin, seeded into an empty staff table on first start
 * (CONSOLE_DEMO_USERS=on, the default) and printed by the start command. The second admin is the one who can approve
 * the first admin's staff changes and production setting: an admin the first one created never can (docs/approvals.md).
 * The passwords are public by design: switch demo users off for a real bank.
 */
export const demoUsers: ReadonlyArray<{ email: string; name: string; role: Role; password: string }> = [
  { email: "admin@demo.bank", name: "Ada Admin", role: "admin", password: "demo-admin-pass" },
  { email: "operations@demo.bank", name: "Otto Operations", role: "operations", password: "demo-operations-pass" },
  { email: "compliance@demo.bank", name: "Clara Compliance", role: "compliance", password: "demo-compliance-pass" },
  { email: "viewer@demo.bank", name: "Vic Viewer", role: "viewer", password: "demo-viewer-pass" },
  { email: "second.admin@demo.bank", name: "Sam Second-Admin", role: "admin", password: "demo-second-admin-pass" },
];
