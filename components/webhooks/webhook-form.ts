import type { WebhookEdit } from "@/components/bank/bank-mutations";

/** Whether `text` is an absolute http(s) URL: the bank checks it again (and where it points); this spares a round trip for a typo. */
export function webhookUrlProblem(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? null : "The URL must start with http:// or https://.";
  } catch {
    return "Enter an absolute URL, such as https://example.com/hooks/bank.";
  }
}

export type SecretChoice = "keep" | "set" | "remove";

/** The fields the form changed, as the PATCH body: nothing unchanged is sent (the bank then has nothing to judge). */
export function webhookEdit(
  current: { url: string; event: string; basic_user: string | null },
  draft: { url: string; event: string; basicUser: string; secret: SecretChoice; basicSecret: string },
): WebhookEdit {
  const basicUser = draft.basicUser === "" ? null : draft.basicUser;
  return {
    ...(draft.url !== current.url && { url: draft.url }),
    ...(draft.event !== current.event && { event: draft.event }),
    ...(basicUser !== current.basic_user && { basic_user: basicUser }),
    ...(draft.secret === "set" && { basic_secret: draft.basicSecret }),
    ...(draft.secret === "remove" && { basic_secret: null }),
  };
}
