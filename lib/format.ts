/** Formatting shared by every list and detail page. Pure and client-safe. */

/** A two-decimal amount string with thousands separators, never through a float: "1234567.50" → "1,234,567.50". */
export function formatMoney(amount: string): string {
  const match = /^(-?)([0-9]+)\.([0-9]{2})$/.exec(amount);
  if (!match) return amount;
  const [, sign, whole, cents] = match as unknown as [string, string, string, string];
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 minutes ago", "in 2 days". */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return iso;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === "second") return relative.format(Math.trunc(seconds / size), unit);
  }
  return iso;
}

/** "2026-11-23 14:05:09 UTC": the exact time, shown on hover. */
export function exactUtc(iso: string): string {
  return iso.replace("T", " ").replace("Z", " UTC");
}

export type Tone = "success" | "warning" | "danger" | "neutral" | "info";

/** One colour scheme for every status in the app, by meaning rather than by resource. */
const tones: Record<string, Tone> = {
  sent: "success", done: "success", active: "success", approved: "success", enabled: "success", provisioned: "success",
  decision_green: "success", succeeded: "success",
  pending: "info", processing: "info", pending_verification: "warning", unactivated: "neutral", decision_yellow: "warning",
  returned: "warning", suspended: "warning", locked: "warning",
  error: "danger", rejected: "danger", declined: "danger", blocked: "danger", failed: "danger", decision_red: "danger",
  canceled: "neutral", disabled: "neutral", deactivated: "neutral",
};

export function statusTone(status: string): Tone {
  return tones[status] ?? "neutral";
}

/** The value at a dotted path (`security_context.ip_address`), undefined when any step is missing. */
export function valueAt(object: unknown, path: string): unknown {
  let value: unknown = object;
  for (const step of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** An id shortened for the eye: prefix, the first and the last characters ("ach_3fA9…x2Q"); the DOM keeps the full id. */
export function shortId(id: string): string {
  const underscore = id.indexOf("_");
  const body = id.slice(underscore + 1);
  return body.length <= 10 ? id : `${id.slice(0, underscore + 1)}${body.slice(0, 4)}…${body.slice(-4)}`;
}

/** "person_applications" → "Person applications"; for keys the definitions do not label. */
export function humanizeKey(key: string): string {
  const text = key.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A title or name as it reads inside a sentence: "Instant payment" → "instant payment", acronyms kept ("ACH transfer"). */
export function inSentence(text: string): string {
  return /^[A-Z]{2}/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1);
}
