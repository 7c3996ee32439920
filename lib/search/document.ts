import type { ListedResource } from "@/lib/contract/operations";
import { maskForViewer, type MaskedResource } from "@/lib/pii";

/**
 * The search document of one bank object (docs/search.md): its searchable text split by who may match it, so that no
 * role can learn by searching what it would see masked.
 *
 * - `public`: every field a viewer sees in full (the same allowlist as every page, `lib/pii.ts`), and the visible
 *   last four of an account number (shown on every page, and asked for on the phone).
 * - `userdata`: the keys and values of `userdata`, for the roles that may read it (edit it or reveal personal data).
 * - `personal`: every other field in full (masked, or partly masked, for viewers: an email, an SSN, a date of birth,
 *   bankdata), plus the last four digits of each, for roles holding `pii:reveal` only.
 */
export type Visibility = "public" | "userdata" | "personal";

export interface SearchField {
  /** Dotted path of the field in the object, e.g. `email_address`, `ach.account_number`, `userdata.ticket`. */
  path: string;
  value: string;
  visibility: Visibility;
}

export interface SearchDocument {
  publicText: string;
  userdataText: string;
  personalText: string;
  amountCents: number | null;
}

/** Partly masked fields whose visible part (the last four) every role may search: numbers of accounts, not of people. */
const publicLastFour = new Set(["account_number", "external_account_number", "network_account_id"]);
/** Fields that say nothing anyone searches for: times, and a webhook's secret. */
const skipped = (key: string) => key.endsWith("_at") || key === "basic_secret";

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The last four digits of a value holding at least four, e.g. of `123-45-6789`: `6789`. */
export function lastFourDigits(value: string): string | null {
  const digits = value.replace(/\D/g, "");
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/** An amount as the bank writes it (`1234.56`) in cents; null for anything else. */
export function amountInCents(value: unknown): number | null {
  if (typeof value !== "string" || !/^[0-9]{1,13}[.][0-9]{2}$/.test(value)) return null;
  return Number(value.replace(".", ""));
}

/** Every searchable field of an object's latest state, each with who may match it. */
export function searchFields(resource: ListedResource, state: Record<string, unknown>): SearchField[] {
  const masked = maskForViewer(resource as MaskedResource, structuredClone(state));
  const fields: SearchField[] = [];
  const userdata = (value: unknown, path: string) => {
    if (isPlainObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        fields.push({ path: `${path}.${key}`, value: key, visibility: "userdata" });
        userdata(inner, `${path}.${key}`);
      }
    } else if (Array.isArray(value)) value.forEach((inner, index) => userdata(inner, `${path}.${index}`));
    else if (typeof value === "string" || typeof value === "number") fields.push({ path, value: String(value), visibility: "userdata" });
  };
  const walk = (value: unknown, shown: unknown, path: string, key: string) => {
    if (value === null || value === undefined || typeof value === "boolean") return;
    if (isPlainObject(value)) {
      for (const [inner, innerValue] of Object.entries(value)) {
        if (skipped(inner)) continue;
        walk(innerValue, isPlainObject(shown) ? shown[inner] : undefined, path ? `${path}.${inner}` : inner, inner);
      }
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((inner, index) => walk(inner, Array.isArray(shown) ? shown[index] : undefined, `${path}.${index}`, key));
      return;
    }
    const text = String(value);
    if (text === "") return;
    if (shown === value) {
      fields.push({ path, value: text, visibility: "public" });
      return;
    }
    fields.push({ path, value: text, visibility: "personal" });
    const lastFour = lastFourDigits(text);
    if (lastFour)
      fields.push({
        path,
        value: lastFour,
        visibility: publicLastFour.has(key) && typeof shown === "string" && shown.endsWith(lastFour) ? "public" : "personal",
      });
  };
  for (const [key, value] of Object.entries(state)) {
    if (key === "userdata") userdata(value, "userdata");
    else if (!skipped(key)) walk(value, masked[key], key, key);
  }
  return fields;
}

const textOf = (fields: SearchField[], visibility: Visibility) =>
  fields
    .filter((field) => field.visibility === visibility)
    .map((field) => field.value)
    .join("\n");

export function searchDocument(resource: ListedResource, state: Record<string, unknown>): SearchDocument {
  const fields = searchFields(resource, state);
  return {
    publicText: textOf(fields, "public"),
    userdataText: textOf(fields, "userdata"),
    personalText: textOf(fields, "personal"),
    amountCents: amountInCents(state.amount),
  };
}
