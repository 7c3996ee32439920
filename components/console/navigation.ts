import type { Environment } from "@/lib/credentials/environments";
import type { Permission } from "@/lib/permissions";
import { resourceRoutes } from "@/lib/resources/routes";

export interface NavigationItem {
  href: string;
  label: string;
  permission: Permission;
  description: string;
  /** Shown only while the sandbox environment is active (its page says "sandbox only" elsewhere). */
  sandboxOnly?: boolean;
}

export interface NavigationGroup {
  /** Null for the ungrouped entries at the top (Home). */
  title: string | null;
  items: NavigationItem[];
}

const bankSection = (name: keyof typeof resourceRoutes, description: string): NavigationItem => ({
  href: resourceRoutes[name].route,
  label: resourceRoutes[name].title,
  permission: "bank:read",
  description,
});

/**
 * The console's sections in the sidebar, grouped; a link shows only to roles holding its permission (the page checks
 * it again).
 */
export const navigationGroups: NavigationGroup[] = [
  { title: null, items: [{ href: "/", label: "Home", permission: "bank:read", description: "What needs attention now" }] },
  {
    title: "Money movement",
    items: [
      bankSection("network_transfer", "Account-to-account transfers, their status and userdata"),
      bankSection("ach", "ACH credits and debits, returns and errors"),
      bankSection("fednow", "Instant payments and their external status"),
    ],
  },
  {
    title: "Applications",
    items: [
      {
        href: "/reviews",
        label: "Review queue",
        permission: "review:decide",
        description: "Applications awaiting a compliance decision, oldest first; assign, check, decide with a second reviewer",
      },
      bankSection("person_application", "Account applications of people, for compliance review"),
      bankSection("business_application", "Business applications with their beneficial owners"),
    ],
  },
  {
    title: "Parties",
    items: [bankSection("counterparty", "External parties for ACH and wire"), bankSection("deposit_sweep", "Deposit sweep accounts")],
  },
  {
    title: "Cards",
    items: [bankSection("card", "Cards and their holders"), bankSection("digital_wallet_token", "Cards provisioned to digital wallets")],
  },
  {
    title: "Developers",
    items: [
      bankSection("webhook", "Webhook subscriptions and their deliveries"),
      {
        href: "/events",
        label: "Events",
        permission: "bank:read",
        description: "Bank notifications the console received, and what fetching each object found",
      },
      {
        href: "/simulations",
        label: "Simulations",
        permission: "simulation:run",
        description: "Sandbox only: simulate wallet provisioning of a card",
        sandboxOnly: true,
      },
      {
        href: "/sandbox",
        label: "Sandbox",
        // Shown to the roles that drive the sandbox, like Simulations; the page itself also shows its clock to any
        // role that reads the bank, for a shared link.
        permission: "sandbox:control",
        description: "Sandbox only: reset, snapshots, the clock and failures on demand",
        sandboxOnly: true,
      },
    ],
  },
  {
    title: "Console",
    items: [
      {
        href: "/approvals",
        label: "Approvals",
        permission: "change:approve",
        description: "Changes waiting for a second person (four-eyes): approve, reject or withdraw",
      },
      {
        href: "/audit",
        label: "Audit log",
        permission: "audit:read",
        description: "Every change and personal-data reveal made through the console; filter and export as CSV",
      },
      {
        href: "/settings/staff",
        label: "Staff users",
        permission: "staff:manage",
        description: "Create staff users, change their role, lock or remove them",
      },
      {
        href: "/settings/credentials",
        label: "Bank credentials",
        permission: "credentials:manage",
        description: "Base URL and API key or token of each environment",
      },
      {
        href: "/settings/index",
        label: "Index of the bank",
        permission: "index:manage",
        description: "Receiver secret, subscriptions, backfill and purge of the console's index",
      },
    ],
  },
];

export const navigation: NavigationItem[] = navigationGroups.flatMap((group) => group.items);

/** Whether an entry shows to someone holding `permissions` while `environment` is active. */
export function isShown(item: NavigationItem, permissions: readonly Permission[], environment: Environment): boolean {
  return permissions.includes(item.permission) && (!item.sandboxOnly || environment === "sandbox");
}
