/**
 * Personal data on account applications, masked unless a role holding `pii:reveal` asks to see it (each reveal is
 * audited by the route that serves it). Masking keeps enough to recognise a record on the phone with a customer:
 * the last four characters of numbers, the first letter and domain of an email, nothing of a date of birth.
 */

export type ApplicationKind = "person_application" | "business_application";

type Masker = (value: string) => string;

const keepLastFour: Masker = (value) => (value.length <= 4 ? "*".repeat(value.length) : `${"*".repeat(value.length - 4)}${value.slice(-4)}`);
const hideEmail: Masker = (value) => {
  const at = value.lastIndexOf("@");
  return at <= 0 ? "*".repeat(value.length) : `${value[0]}***${value.slice(at)}`;
};
const hideDate: Masker = () => "****-**-**";

/** The personal fields of each application kind and how each is masked. */
export const maskedFields: Record<ApplicationKind, Record<string, Masker>> = {
  person_application: {
    identification_number: keepLastFour,
    date_of_birth: hideDate,
    phone_number: keepLastFour,
    email_address: hideEmail,
    secondary_email_address: hideEmail,
  },
  business_application: {
    identification_number: keepLastFour,
    tin: keepLastFour,
    phone_number: keepLastFour,
  },
};

/** A copy of `application` with its personal fields masked; null stays null, every other field is untouched. */
export function maskApplication<T extends Record<string, unknown>>(kind: ApplicationKind, application: T): T {
  const masked: Record<string, unknown> = { ...application };
  for (const [field, mask] of Object.entries(maskedFields[kind])) {
    const value = masked[field];
    if (typeof value === "string") masked[field] = mask(value);
    else if (value !== null && value !== undefined) masked[field] = "[masked]";
  }
  return masked as T;
}
