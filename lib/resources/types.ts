/**
 * What the console shows of each bank resource: its list columns and detail sections (its names and routes are in
 * routes.ts). One generic
 * list (components/bank/resource-list.tsx) and one detail layout (components/bank/resource-detail.tsx) render every
 * resource from these definitions. Client-safe on purpose: no zod and no server code, so the browser bundle stays small
 * (the server derives the filter controls from the contract's list queries, lib/resources/filters.ts).
 */
import type { ResourceName } from "@/lib/contract/names";
import type { DerivedValue } from "./derived";
import type { ResourceRoute } from "./routes";

export type { ResourceName };

/**
 * How one value is shown; each format has one renderer (components/bank/value.tsx) over the rule set in lib/format/values.ts.
 * `enum`: the bank's code in words ("soleprop" → "Sole proprietorship"), the code in the tooltip. `expiry`: a card's
 * `<key>` month with its `<key minus _month>_year` sibling as MM/YY.
 */
export type ValueFormat =
  | "text"
  | "mono"
  | "id"
  | "money"
  | "status"
  | "timestamp"
  | "date"
  | "boolean"
  | "json"
  | "list"
  | "address"
  | "percent"
  | "enum"
  | "expiry"
  | "phone"
  /** A reason in words (a return code and its text): in a list, its start, with the whole on hover. */
  | "reason"
  /** A network's code (`R01`, `AC04`): what it means on hover (its derivation's hint), a link where the field has one. */
  | "code"
  /** A short label in a badge (the console's own webhooks). */
  | "badge";

/** Where a value leads: the detail page of the object it names, or a list filtered by it. */
export type ValueLink = { detail: ResourceName } | { list: ResourceName; filter: string };

export interface Field {
  /** Dotted path into the object (`security_context.ip_address`). */
  key: string;
  label: string;
  format?: ValueFormat;
  link?: ValueLink;
  /** For `money`: the field saying credit or debit (shown beside the amount), and the field naming the currency (else USD). */
  direction?: string;
  currency?: string;
  /**
   * A value computed from the bank's fields rather than read at `key` (./derived.ts): `key` then names the value
   * itself (a list column's id and an export's header, `return_code`), never a field of the bank's object.
   */
  derived?: DerivedValue;
  /** List columns hidden until the user shows them (column visibility is remembered per user in the browser). */
  hiddenByDefault?: boolean;
}

export interface DetailSection {
  title: string;
  fields: Field[];
}

/** A resource's names and addresses (routes.ts), with what its own list and detail pages show. */
export interface ResourceDefinition extends ResourceRoute {
  /** The list's columns, left to right; the first is the id. */
  columns: Field[];
  /** Labels and id prefixes of the list's filters; the filters themselves come from the contract's list query. */
  filters?: Record<string, { label?: string; idPrefix?: string; hint?: string }>;
  /** The detail page's title line: a field shown beside the id (an amount, a name). */
  headline?: Field;
  sections: DetailSection[];
  /** Links from the detail page to other lists related to this object. */
  relatedLists?: Array<{ label: string; list: ResourceName; filter: string; from?: string }>;
  /** Panels beyond the field sections (the beneficial-owner review table), placed after the section titled `after`. */
  panels?: Array<{ kind: "beneficial-owners"; after: string }>;
  /** The object carries personal data: masked unless a role with `pii:reveal` reveals it (audited). */
  personalData?: boolean;
}

/**
 * What a detail page draws from its resource's definition, and all the server sends the browser of it: the list's
 * columns and filters stay on the server (a detail page's payload is parsed before its first paint).
 */
export type DetailDefinition = Pick<ResourceDefinition, (typeof detailKeys)[number]>;
const detailKeys = ["name", "title", "singular", "route", "headline", "sections", "relatedLists", "panels"] as const;

export function detailDefinition(definition: ResourceDefinition): DetailDefinition {
  return Object.fromEntries(detailKeys.filter((key) => key in definition).map((key) => [key, definition[key]])) as DetailDefinition;
}

/** A resource's page as written in definitions/: its names and addresses are in routes.ts (index.ts adds them). */
export type ResourcePage = Omit<ResourceDefinition, Exclude<keyof ResourceRoute, "name">>;

export const id = (label = "Id"): Field => ({ key: "id", label, format: "id" });
export const createdAt: Field = { key: "created_at", label: "Created", format: "timestamp" };
export const updatedAt: Field = { key: "updated_at", label: "Updated", format: "timestamp" };
export const status: Field = { key: "status", label: "Status", format: "status" };
export const amount: Field = { key: "amount", label: "Amount", format: "money" };
/** The organization filter, the same on every list that has it. */
export const orgFilter = { label: "Organization", idPrefix: "org_" };
/** The objects attached by the API user and by the bank, shown as formatted JSON. */
export const dataSection = (...keys: Array<"userdata" | "bankdata">): DetailSection => ({
  title: "Data",
  fields: keys.map((key) => ({ key, label: key === "userdata" ? "User data" : "Bank data", format: "json" })),
});
export const timestamps: DetailSection = { title: "Record", fields: [id(), createdAt, updatedAt] };
