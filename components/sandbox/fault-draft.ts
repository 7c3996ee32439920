/** The Add a failure form (fault-form.tsx) as data: its fields and the body they make. Pure, so it is tested without a page. */

/** The Add a failure form's fields, as typed. */
export interface FaultDraft {
  kind: "http" | "webhooks";
  match: string;
  status: string;
  retryAfter: string;
  latencyMs: string;
  drop: boolean;
  webhooks: "delay" | "drop" | "duplicate";
  delayMs: string;
  share: string;
  times: string;
  expiresIn: string;
}

export const blankFault: FaultDraft = {
  kind: "http",
  match: "GET /ach",
  status: "503",
  retryAfter: "",
  latencyMs: "",
  drop: false,
  webhooks: "delay",
  delayMs: "5000",
  share: "",
  times: "",
  expiresIn: "",
};

/** A number field's value as the body takes it: left out when empty, a number otherwise (the schema judges it). */
const numberOf = (text: string) => (text.trim() === "" ? undefined : Number(text));
const textOf = (text: string) => (text.trim() === "" ? undefined : text.trim());

/** The fault the form describes, as `POST /api/sandbox/faults` takes it (docs/sandbox-control.md, "Faults"). */
export function faultBody(draft: FaultDraft): Record<string, unknown> {
  const common = { share: numberOf(draft.share), times: numberOf(draft.times), expires_in: textOf(draft.expiresIn) };
  const body =
    draft.kind === "webhooks"
      ? { webhooks: draft.webhooks, delay_ms: draft.webhooks === "delay" ? numberOf(draft.delayMs) : undefined, ...common }
      : {
          match: draft.match.trim(),
          status: numberOf(draft.status),
          retry_after: draft.status ? numberOf(draft.retryAfter) : undefined,
          latency_ms: numberOf(draft.latencyMs),
          drop: draft.drop || undefined,
          ...common,
        };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
