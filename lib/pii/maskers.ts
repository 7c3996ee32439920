/** How masked strings are shown: each Masker keeps what lets staff recognise a record and nothing more. */

export type Masker = (value: string) => string;

/** What a masked value becomes; null stays null (it tells only that there is nothing). */
export const maskedValue = "[masked]";

export const keepLastFour: Masker = (value) => (value.length <= 4 ? "*".repeat(value.length) : `${"*".repeat(value.length - 4)}${value.slice(-4)}`);
export const hideEmail: Masker = (value) => {
  const at = value.lastIndexOf("@");
  return at <= 0 ? "*".repeat(value.length) : `${value[0]}***${value.slice(at)}`;
};
export const hideDate: Masker = () => "****-**-**";
/** A url without a user or password in it (the sandbox refuses them now; one saved before is still shown without). */
export const withoutCredentials: Masker = (value) => {
  try {
    const url = new URL(value);
    if (!url.username && !url.password) return value;
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return maskedValue;
  }
};
/**
 * A failed delivery as roles that may not manage webhooks see it: the status, or that the bank refused the target,
 * or that no answer came; never the receiver's reply nor a network error naming an internal address (the full text is
 * shown to `webhook:write`, lib/api/bank-allowlist.ts).
 */
export const deliveryOutcome: Masker = (value) => {
  const status = /^HTTP \d{3}/.exec(value);
  if (status) return `${status[0]} (reply shown to roles that manage webhooks)`;
  if (value.startsWith("refused:")) return "refused: the target is not allowed";
  if (/^no response within \d+ ms$/.test(value)) return value;
  return "no answer (details shown to roles that manage webhooks)";
};
