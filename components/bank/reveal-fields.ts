import { isMaskedField, maskedValue, type MaskedResource } from "@/lib/pii";

/**
 * What a reveal may ask for on one object, in words: the fields the page shows masked (lib/pii.ts), each named as a
 * person would say it. A field the bank adds later is masked too and shows with "Reveal all".
 */

/** Names for the fields people ask for most; any other field reads as its name in words. */
const fieldWords: Readonly<Record<string, string>> = {
  identification_number: "Identification number",
  tin: "TIN",
  email_address: "Email",
  secondary_email_address: "Secondary email",
  phone_number: "Phone",
  physical_address: "Physical address",
  mailing_address: "Mailing address",
  person_applications: "Beneficial owners' details",
  url: "URL",
  customer_identifier: "Customer identifier",
};

const identificationWords: Readonly<Record<string, string>> = { ssn: "SSN", itin: "ITIN", ein: "EIN", passport: "Passport number" };

/** "SSN" for an identification number of that type; "Date of birth" for `date_of_birth`. */
export function revealFieldLabel(field: string, object: Record<string, unknown>): string {
  const type = object.identification_number_type;
  if (field === "identification_number" && typeof type === "string" && Object.hasOwn(identificationWords, type.toLowerCase()))
    return identificationWords[type.toLowerCase()]!;
  if (Object.hasOwn(fieldWords, field)) return fieldWords[field]!;
  const words = field.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether masking changed this value (`[masked]`, a starred string, or something masked inside it). */
const looksMasked = (value: unknown) => value === maskedValue || /"(\[masked\]|\*+[^"]*)"/.test(JSON.stringify(value ?? null));

/** The top-level fields of `masked` (an object as a GET shows it) that a reveal would unmask, in the object's order. */
export function revealableKeys(resource: MaskedResource, masked: Record<string, unknown>): string[] {
  return Object.keys(masked).filter((field) => masked[field] !== null && isMaskedField(resource, field) && looksMasked(masked[field]));
}
