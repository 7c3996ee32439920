import { formatMoney, valueAt } from "@/lib/format";
import { maskedValue } from "@/lib/pii";
import type { ResourceDefinition } from "./types";

/**
 * Browser titles of the bank pages, from the resource definitions (the root layout appends " · Bank console"): a list
 * is its title (`ACH transfers`), a detail page names its object: the singular, the id and the definition's headline
 * value when there is one to show (`ACH transfer ach_7f52 · $58,169.77`). A masked or empty headline is left out.
 */
export function listTitle(definition: ResourceDefinition): string {
  return definition.title;
}

export function detailTitle(definition: ResourceDefinition, id: string, object?: unknown): string {
  const headline = object !== undefined && definition.headline ? headlineText(definition, object) : null;
  return headline ? `${definition.singular} ${id} · ${headline}` : `${definition.singular} ${id}`;
}

function headlineText(definition: ResourceDefinition, object: unknown): string | null {
  const field = definition.headline!;
  const value = valueAt(object, field.key);
  if (value === null || value === undefined || value === "" || value === maskedValue || typeof value === "object") return null;
  const text = String(value);
  if (field.format === "money") {
    const currency = valueAt(object, "currency");
    const amount = formatMoney(text);
    if (currency === undefined || currency === null || currency === "USD") return amount.startsWith("-") ? `-$${amount.slice(1)}` : `$${amount}`;
    return `${amount} ${String(currency)}`;
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
