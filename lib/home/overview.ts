import "server-only";
import { readThroughProxy } from "@/lib/api/server-read";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { BankPage } from "@/lib/bank/browser";
import type { Environment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import { can } from "@/lib/permissions";
import { listHref, type ResourceName } from "@/lib/resources";
import { volumeKinds } from "./attention-today";
import { indexCounts, type IndexCounts } from "./index-counts";

/**
 * How many objects a count read from the bank looks at: the bank has no count endpoint, so such counts stop here and
 * say "N+". Home counts from the console's index instead (exact) for every kind the index has walked in full.
 */
export const countLimit = 100;

export interface AttentionItem {
  label: string;
  href: string;
  /** Objects found (at most countLimit); null when the bank could not be read. */
  count: number | null;
  /** More exist than were counted. */
  more: boolean;
  /** Counted exactly in the console's index, or on the bank's first page (up to countLimit). */
  source: "index" | "bank";
  error?: string;
}

/** The index's counts for Home, or null when the index cannot be read (Home then counts from the bank). */
export async function homeIndexCounts(environment: Environment): Promise<IndexCounts | null> {
  try {
    return await indexCounts((await consoleDb()).db, environment);
  } catch {
    return null;
  }
}

const attention: Array<{ label: string; resource: ResourceName; filter: Record<string, string> }> = [
  { label: "Network transfers in error", resource: "network_transfer", filter: { status: "error" } },
  { label: "Instant payments in error", resource: "fednow", filter: { status: "error" } },
  { label: "Returned ACH transfers", resource: "ach", filter: { status: "returned" } },
  { label: "ACH transfers in error", resource: "ach", filter: { status: "error" } },
  { label: "Webhooks in error", resource: "webhook", filter: { status: "error" } },
  { label: "Disabled webhooks", resource: "webhook", filter: { status: "disabled" } },
];

/** Every kind Home reads: a change to one of them redraws it (live pages). */
export const homeKinds: ResourceName[] = [
  ...new Set([...attention.map((item) => item.resource), "person_application" as const, ...volumeKinds, "business_application" as const]),
];

async function count(user: StaffUser, resource: ResourceName, filter: Record<string, string>, counts: IndexCounts | null) {
  const inIndex = counts?.byStatus[resource];
  if (inIndex && filter.status) return { count: inIndex[filter.status] ?? 0, more: false, source: "index" as const };
  const read = await readThroughProxy<BankPage>(user, `list_${resource}`, { query: { ...filter, page_size: String(countLimit) } });
  return read.ok
    ? { count: read.data.data.length, more: Boolean(read.data.page_next), source: "bank" as const }
    : { count: null, more: false, source: "bank" as const, error: read.error.message };
}

/** What needs attention now, each with a link into the list filtered to exactly those objects. */
export async function attentionItems(user: StaffUser, counts: IndexCounts | null): Promise<AttentionItem[]> {
  const items: AttentionItem[] = await Promise.all(
    attention.map(async (item) => ({
      label: item.label,
      href: listHref(item.resource, item.filter),
      ...(await count(user, item.resource, item.filter, counts)),
    })),
  );
  // Applications have no review status in the API; one without a person yet has not been approved.
  // Reviewers go to their queue (docs/reviews.md); everyone else to the list.
  const applicationsHref = can(user.role, "review:decide") ? "/reviews?kind=person_application" : listHref("person_application");
  if (counts?.applicationsWithoutPerson != null) {
    items.push({
      label: "Person applications without a person yet",
      href: applicationsHref,
      count: counts.applicationsWithoutPerson,
      more: false,
      source: "index",
    });
    return items;
  }
  const applications = await readThroughProxy<BankPage>(user, "list_person_application", { query: { page_size: String(countLimit) } });
  items.push({
    label: `Person applications without a person yet (newest ${countLimit})`,
    href: applicationsHref,
    count: applications.ok ? applications.data.data.filter((application) => application.person_id === null).length : null,
    more: false,
    source: "bank",
    ...(applications.ok ? {} : { error: applications.error.message }),
  });
  return items;
}
