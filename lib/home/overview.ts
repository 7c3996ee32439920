import "server-only";
import { readThroughProxy } from "@/lib/api/server-read";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { BankPage } from "@/lib/bank/browser";
import type { Environment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import { can } from "@/lib/permissions";
import { listHref, resources, type ResourceName } from "@/lib/resources";
import { indexCounts, type IndexCounts } from "./index-counts";

/**
 * How many objects a count read from the bank looks at: the bank has no count endpoint, so such counts stop here and
 * say "N+". Home counts from the console's index instead (exact) for every kind the index has walked in full.
 */
export const countLimit = 100;
/** The home chart's window: the newest objects of each money movement. */
export const chartWindow = 250;

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

/** Money movements charted by status. */
const chartedKinds: ResourceName[] = ["network_transfer", "ach", "fednow"];

/** Every kind Home reads: a change to one of them redraws it (live pages). */
export const homeKinds: ResourceName[] = [...new Set([...attention.map((item) => item.resource), "person_application" as const, ...chartedKinds])];

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

export interface StatusBreakdown {
  resource: string;
  href: string;
  counts: Record<string, number>;
  total: number;
  /** Every object of the kind in the console's index, or the newest `chartWindow` read from the bank. */
  source: "index" | "bank";
  error?: string;
}

/** Money movements by status, for the home chart: all of each kind from the index, else the bank's newest `chartWindow`. */
export async function movementsByStatus(user: StaffUser, indexed: IndexCounts | null): Promise<StatusBreakdown[]> {
  return Promise.all(
    chartedKinds.map(async (resource): Promise<StatusBreakdown> => {
      const inIndex = indexed?.byStatus[resource];
      if (inIndex) {
        const total = Object.values(inIndex).reduce((sum, objects) => sum + objects, 0);
        return { resource: resources[resource].title, href: listHref(resource), counts: { ...inIndex }, total, source: "index" };
      }
      const read = await readThroughProxy<BankPage>(user, `list_${resource}`, { query: { page_size: String(chartWindow) } });
      const base = { resource: resources[resource].title, href: listHref(resource) };
      if (!read.ok) return { ...base, counts: {}, total: 0, source: "bank", error: read.error.message };
      const counts: Record<string, number> = {};
      for (const object of read.data.data) counts[String(object.status)] = (counts[String(object.status)] ?? 0) + 1;
      return { ...base, counts, total: read.data.data.length, source: "bank" };
    }),
  );
}
