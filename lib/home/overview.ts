import "server-only";
import { readThroughProxy } from "@/lib/api/server-read";
import type { StaffUser } from "@/lib/auth/staff-users";
import type { BankPage } from "@/lib/bank/browser";
import { listHref, resources, type ResourceName } from "@/lib/resources";

/** How many objects a count looks at: the bank has no count endpoint, so counts stop here and say "N+". */
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
  error?: string;
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

async function count(user: StaffUser, resource: ResourceName, filter: Record<string, string>) {
  const read = await readThroughProxy<BankPage>(user, resources[resource].apiPath, { ...filter, page_size: String(countLimit) });
  return read.ok ? { count: read.data.data.length, more: Boolean(read.data.page_next) } : { count: null, more: false, error: read.error.message };
}

/** What needs attention now, each with a link into the list filtered to exactly those objects. */
export async function attentionItems(user: StaffUser): Promise<AttentionItem[]> {
  const items: AttentionItem[] = await Promise.all(
    attention.map(async (item) => ({ label: item.label, href: listHref(item.resource, item.filter), ...(await count(user, item.resource, item.filter)) })),
  );
  // Applications have no review status in the API; one without a person yet has not been approved.
  const applications = await readThroughProxy<BankPage>(user, resources.person_application.apiPath, { page_size: String(countLimit) });
  items.push({
    label: `Person applications without a person yet (newest ${countLimit})`,
    href: listHref("person_application"),
    count: applications.ok ? applications.data.data.filter((application) => application.person_id === null).length : null,
    more: false,
    ...(applications.ok ? {} : { error: applications.error.message }),
  });
  return items;
}

export interface StatusBreakdown {
  resource: string;
  href: string;
  counts: Record<string, number>;
  total: number;
  error?: string;
}

/** Money movements by status over the newest `chartWindow` of each kind, for the home chart. */
export async function movementsByStatus(user: StaffUser): Promise<StatusBreakdown[]> {
  return Promise.all(
    chartedKinds.map(async (resource): Promise<StatusBreakdown> => {
      const read = await readThroughProxy<BankPage>(user, resources[resource].apiPath, { page_size: String(chartWindow) });
      const base = { resource: resources[resource].title, href: listHref(resource) };
      if (!read.ok) return { ...base, counts: {}, total: 0, error: read.error.message };
      const counts: Record<string, number> = {};
      for (const object of read.data.data) counts[String(object.status)] = (counts[String(object.status)] ?? 0) + 1;
      return { ...base, counts, total: read.data.data.length };
    }),
  );
}
