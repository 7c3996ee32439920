/** Values as people read them: money, amounts, phones, dates of birth, expiry, enum words, field text. Pure and client-safe. */
import { defaultTimeZone, formatDateTime } from "./time";

/** A two-decimal amount string with thousands separators, never through a float: "1234567.50" → "1,234,567.50". */
export function formatMoney(amount: string): string {
  const match = /^(-?)([0-9]+)\.([0-9]{2})$/.exec(amount);
  if (!match) return amount;
  const [, sign, whole, cents] = match as unknown as [string, string, string, string];
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

export type Tone = "success" | "warning" | "danger" | "neutral" | "info";

/** One colour scheme for every status in the app, by meaning rather than by resource. */
const tones: Record<string, Tone> = {
  sent: "success",
  done: "success",
  active: "success",
  approved: "success",
  enabled: "success",
  provisioned: "success",
  decision_green: "success",
  succeeded: "success",
  pending: "info",
  processing: "info",
  pending_verification: "warning",
  unactivated: "neutral",
  decision_yellow: "warning",
  returned: "warning",
  suspended: "warning",
  locked: "warning",
  error: "danger",
  rejected: "danger",
  declined: "danger",
  blocked: "danger",
  failed: "danger",
  decision_red: "danger",
  canceled: "neutral",
  disabled: "neutral",
  deactivated: "neutral",
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

/* ------------------------------------------------------------------------------------------------------------------
 * The readable-values rule set (docs/console-pages.md, "Values"): one function per kind of value, used by lists,
 * details, the timeline, the audit log and previews alike. Each keeps the raw value recoverable (the callers put it in
 * a `title`, and Raw JSON shows the bank's object unchanged).
 * ---------------------------------------------------------------------------------------------------------------- */

/** What masking leaves of a value (lib/pii.ts: `[masked]`, or stars but for its end): shown as it is, never as a link. */
export function isMaskedText(value: unknown): boolean {
  return typeof value === "string" && (value === "[masked]" || /^\*+[^*]*$/.test(value) || value === "****-**-**");
}

const currencySymbols = new Map<string, string>();
/** "$" for USD, "€" for EUR; the ISO code and a space for a currency Intl does not know. */
function currencySymbol(currency: string): string {
  const code = currency.toUpperCase();
  let symbol = currencySymbols.get(code);
  if (symbol === undefined) {
    try {
      const parts = new Intl.NumberFormat("en-US", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" }).formatToParts(0);
      const found = parts.find((part) => part.type === "currency")?.value ?? code;
      // A code Intl has no sign for comes back as the code itself: a space keeps it apart from the figure.
      symbol = /^[A-Z]{2,}$/.test(found) ? `${found} ` : found;
    } catch {
      symbol = `${code} `;
    }
    currencySymbols.set(code, symbol);
  }
  return symbol;
}

/** The money directions the bank uses (`direction` on ACH, `payment_type` on instant payments), as a short mark. */
export const directionMarks: Record<string, { mark: string; words: string }> = {
  credit: { mark: "CR", words: "credit: money sent to the other party" },
  debit: { mark: "DR", words: "debit: money drawn from the other party" },
};

/**
 * An amount as people read it: "$1,234.56", "−$5.00", "€12.00". The bank's two-decimal string is grouped as text, never
 * through a float, so no cent is ever rounded away. A value that is not an amount (a mask) comes back unchanged.
 */
export function formatAmount(amount: string, currency = "USD"): string {
  const match = /^(-?)([0-9]+)\.([0-9]{2})$/.exec(amount);
  if (!match) return amount;
  const [, sign] = match as unknown as [string, string];
  return `${sign ? "−" : ""}${currencySymbol(currency)}${formatMoney(amount.replace(/^-/, ""))}`;
}

/** An amount with its direction where the object has one: "$1,234.56 CR" (credit) or "$1,234.56 DR" (debit). */
export function formatSignedAmount(amount: string, direction: unknown, currency = "USD"): string {
  const mark = typeof direction === "string" ? directionMarks[direction]?.mark : undefined;
  return mark ? `${formatAmount(amount, currency)} ${mark}` : formatAmount(amount, currency);
}

/**
 * A phone number as people write it: "+13035550176" or "3035550176" → "+1 303 555 0176" (North American numbers, the
 * bank's); anything else (another country's number, a mask) unchanged.
 */
export function formatPhone(value: string): string {
  const digits = value.replace(/[\s().-]/g, "");
  const american = /^(?:\+?1)?(\d{3})(\d{3})(\d{4})$/.exec(digits);
  return american ? `+1 ${american[1]} ${american[2]} ${american[3]}` : value;
}

const calendar = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" });
/** A calendar date (no time, no zone: an effective or settlement date): "2026-11-17" → "Nov 17, 2026". Others unchanged. */
export function formatCalendarDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? value : calendar.format(date);
}

/** A card's expiry as printed on it: month 3, year 2029 → "03/29". Anything else (a mask, a missing part) as it came. */
export function formatExpiry(month: unknown, year: unknown): string {
  const m = typeof month === "number" ? month : Number(month);
  const y = typeof year === "number" ? year : Number(year);
  if (!Number.isInteger(m) || m < 1 || m > 12 || !Number.isInteger(y) || y < 0) {
    return [month, year].filter((part) => part !== null && part !== undefined && part !== "").join("/");
  }
  return `${String(m).padStart(2, "0")}/${String(y % 100).padStart(2, "0")}`;
}

/* Enums. The bank's codes as words; the code itself stays in a tooltip and in Raw JSON. */

/** Codes whose words are not the code with spaces: acronyms, brands, and the bank's shortenings. */
const enumWordsTable: Record<string, string> = {
  ppd: "PPD",
  ccd: "CCD",
  web: "WEB",
  tel: "TEL",
  iat: "IAT",
  cor: "COR",
  sameday: "Same day",
  llc: "LLC",
  llp: "LLP",
  lp: "LP",
  scorp: "S corporation",
  ccorp: "C corporation",
  soleprop: "Sole proprietorship",
  nonprofit: "Nonprofit",
  foreign_entity: "Foreign entity",
  google_pay: "Google Pay",
  apple_pay: "Apple Pay",
  samsung_pay: "Samsung Pay",
  decision_green: "Decision green",
  decision_yellow: "Decision yellow",
  decision_red: "Decision red",
  control_person: "Control person",
  fednow: "FedNow",
  ach: "ACH",
  kyc: "KYC",
  // Identification types as people write them.
  ssn: "SSN",
  itin: "ITIN",
  ein: "EIN",
  tin: "TIN",
};

/**
 * An enum value in words: "sole_proprietorship" → "Sole proprietorship", "soleprop" → "Sole proprietorship",
 * "GOOGLE_PAY" → "Google Pay", "ppd" → "PPD". A value that does not look like a code (has spaces, is a mask) is
 * returned as it is.
 */
export function enumWords(value: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*$/.test(value)) return value;
  const key = value.toLowerCase();
  const known = enumWordsTable[key];
  if (known) return known;
  const words = key.split(/[_.-]/).map((word) => enumWordsTable[word] ?? word);
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Fields that are written but never read back (a webhook's basic-auth secret): never shown as a row. */
export const writeOnlyFields: ReadonlySet<string> = new Set(["basic_secret", "secret", "password"]);

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * One value of a field as plain text by its format (a changed value in a diff, a preview cell): the same rules as the
 * detail rows. Unknown formats and objects read as compact JSON, strings of unknown fields in quotes as JSON shows them,
 * but for a time or a date (an ISO 8601 instant such as a console record's `expiresAt`, a calendar date): every time
 * reads in the one format, every date as `formatCalendarDate` writes it.
 */
export function formatFieldText(format: string | undefined, value: unknown, zone: string = defaultTimeZone, now: number = Date.now()): string {
  if (value === null || value === undefined) return JSON.stringify(value ?? null);
  if (typeof value === "string" && isMaskedText(value)) return value;
  switch (typeof value === "string" ? format : undefined) {
    case "money":
      return formatAmount(value as string);
    case "timestamp":
      return formatDateTime(value as string, zone, now);
    case "date":
      return formatCalendarDate(value as string);
    case "phone":
      return formatPhone(value as string);
    case "enum":
    case "status":
      return enumWords(value as string);
    case "text":
    case "mono":
    case "id":
      return value as string;
  }
  if (format === "boolean" && typeof value === "boolean") return value ? "yes" : "no";
  if (format === undefined && typeof value === "string") {
    if (isoInstant.test(value)) return formatDateTime(value, zone, now);
    if (formatCalendarDate(value) !== value) return formatCalendarDate(value);
  }
  return JSON.stringify(value);
}
