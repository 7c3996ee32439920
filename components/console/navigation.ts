import type { Permission } from "@/lib/permissions";

/** The console's sections; a link shows only to roles holding its permission (the page checks it again). */
export const navigation: ReadonlyArray<{ href: string; label: string; permission: Permission; description: string }> = [
  { href: "/", label: "Home", permission: "bank:read", description: "Where to start" },
  { href: "/audit", label: "Audit log", permission: "audit:read", description: "Every change and personal-data reveal made through the console; filter and export as CSV" },
  { href: "/settings/staff", label: "Staff users", permission: "staff:manage", description: "Create staff users, change their role, lock or remove them" },
  { href: "/settings/credentials", label: "Bank credentials", permission: "credentials:manage", description: "Base URL and API key or token of each environment" },
];
