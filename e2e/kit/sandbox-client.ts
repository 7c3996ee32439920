import type { APIRequestContext, APIResponse } from "@playwright/test";

/**
 * The sandbox bank's control API and plain API reads, as a test calls them (docs/sandbox-control.md,
 * docs/sandbox-api.md). Every method throws a SandboxError on an answer other than 2xx, so a failed setup step stops
 * the test with the bank's own words instead of a confusing assertion later.
 */

/** A bank object as the API answers it: every field present, ids and times as strings. */
export type BankObject = Record<string, unknown> & { id: string };
export interface BankList<T = BankObject> {
  data: T[];
  page_next?: string;
}

/** The resources `POST /sandbox/{resource}` creates. */
export type CreatableResource =
  "ach" | "fednow" | "network_transfer" | "counterparty" | "apply/person_application" | "apply/business_application" | "card";
/** The resources `POST /sandbox/{resource}/{id}/transition` moves. */
export type MovableResource = "ach" | "network_transfer" | "fednow" | "webhook";
/** The body of a transition: `to` and, per resource, `error`, `external_status`, `external_reject_reason`. */
export type TransitionBody = { to?: string; error?: string; external_status?: string; external_reject_reason?: string };
/** The data a reset loads: the demo set, nothing, or the demo set with that many ACH transfers. */
export type Seed = "demo" | "empty" | number;

/** `POST /sandbox/faults`: an HTTP fault (`match`) or a webhook fault (`webhooks`); docs/sandbox-control.md, "Faults". */
export interface FaultSpec {
  match?: string;
  webhooks?: "delay" | "drop" | "duplicate";
  status?: 429 | 500 | 503;
  retry_after?: number;
  latency_ms?: number;
  drop?: boolean;
  delay_ms?: number;
  share?: number;
  seed?: string;
  times?: number;
  expires_in?: string;
}
/** A fault as the bank stores it: every field, null where not given; `times` counts down. */
export interface Fault {
  id: string;
  match: string | null;
  webhooks: FaultSpec["webhooks"] | null;
  status: FaultSpec["status"] | null;
  retry_after: number | null;
  latency_ms: number | null;
  drop: boolean;
  delay_ms: number | null;
  share: number;
  seed: string;
  times: number | null;
  expires_at: string | null;
  created_at: string;
}

/** The whole state of the bank as `GET /sandbox/snapshot` downloads it; `restore` takes it back. */
export interface SandboxSnapshot {
  format: "sandbox-bank-snapshot";
  version: number;
  tables: Record<string, unknown[]>;
}

/** A non-2xx answer of the bank: its status, its message and, for a 409 transition, the valid targets. */
export class SandboxError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: { error?: string; valid?: string[]; valid_external_status?: string[] } | undefined,
  ) {
    const message = body?.error ?? "(no error message)";
    // The bank's 409 message lists the valid targets already; said again only if a bank ever leaves them out.
    const valid = body?.valid && !message.includes("valid:") ? `; valid: ${body.valid.join(", ") || "none"}` : "";
    super(`sandbox bank: ${method} ${path} answered ${status}: ${message}${valid}`);
    this.name = "SandboxError";
  }

  /** The targets a 409 transition error lists as reachable from the object's current state. */
  get valid(): string[] | undefined {
    return this.body?.valid;
  }
}

type Query = Record<string, string | number | boolean>;

export class SandboxClient {
  constructor(
    /** An authenticated request context whose baseURL is the sandbox bank (its requests count as the test's). */
    readonly api: APIRequestContext,
    /** The sandbox bank's base URL, for a team's own client. */
    readonly url: string,
    /** The API key the kit calls with (HTTP Basic), for a team's own client. */
    readonly credentials: { username: string; password: string },
  ) {}

  /** Any API call: parsed JSON of a 2xx answer (undefined for an empty body), else a SandboxError. */
  async request<T = unknown>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
    const response = await this.api.fetch(path, { method, ...(body === undefined ? {} : { data: body }) });
    return answer<T>(method, path, response);
  }

  /** `GET path`; `path` may also be a full URL of this bank, such as a notification's `url`. */
  get<T = BankObject>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }

  /** `GET /{resource}?query`: one page of the list, newest first. */
  list<T = BankObject>(resource: string, query: Query = {}): Promise<BankList<T>> {
    const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
    return this.get<BankList<T>>(`/${resource}${search ? `?${search}` : ""}`);
  }

  /** `POST /sandbox/reset`: replaces every object with the seed's (same ids and times every time), clock back to now. */
  reset(seed: Seed = "demo"): Promise<{ seed: Seed; loaded: Record<string, number> }> {
    return this.request("POST", "/sandbox/reset", { seed });
  }

  /** `GET /sandbox/snapshot`: every object, webhook, delivery, event and the clock's offset. */
  snapshot(): Promise<SandboxSnapshot> {
    return this.request("GET", "/sandbox/snapshot");
  }

  /** `PUT /sandbox/snapshot`: exactly the state of `snapshot` (an object from `snapshot()` or a file's JSON text). */
  restore(snapshot: SandboxSnapshot | string): Promise<{ restored: Record<string, number> }> {
    if (typeof snapshot !== "string") return this.request("PUT", "/sandbox/snapshot", snapshot);
    return this.api
      .put("/sandbox/snapshot", { data: snapshot, headers: { "content-type": "application/json" } })
      .then((response) => answer("PUT", "/sandbox/snapshot", response));
  }

  /** `POST /sandbox/{resource}`: a new object with these fields (defaults for the rest), as its GET answers it. */
  create<T = BankObject>(resource: CreatableResource, fields: Record<string, unknown> = {}): Promise<T> {
    return this.request<T>("POST", `/sandbox/${resource}`, fields);
  }

  /** `POST /sandbox/{resource}/{id}/transition`: the object moved now, through the lifecycle's own steps and events. */
  transition<T = BankObject>(resource: MovableResource, id: string, body: TransitionBody): Promise<T> {
    return this.request<T>("POST", `/sandbox/${resource}/${encodeURIComponent(id)}/transition`, body);
  }

  readonly clock = {
    /** `GET /sandbox/clock`: the sandbox's time (the wall clock plus its offset). */
    now: async (): Promise<Date> => new Date((await this.request<{ now: string }>("GET", "/sandbox/clock")).now),
    /** `POST /sandbox/clock/advance`: forward by an ISO 8601 duration (`PT1H`, `P1D`); answers once the lifecycle caught up. */
    advance: async (by: string): Promise<Date> => new Date((await this.request<{ now: string }>("POST", "/sandbox/clock/advance", { by })).now),
  };

  readonly faults = {
    /** `POST /sandbox/faults`: the fault as stored, with its id. */
    add: (spec: FaultSpec): Promise<Fault> => this.request<Fault>("POST", "/sandbox/faults", spec),
    /** `GET /sandbox/faults`: the active ones, oldest first. */
    list: async (): Promise<Fault[]> => (await this.request<{ data: Fault[] }>("GET", "/sandbox/faults")).data,
    /** `DELETE /sandbox/faults/{id}`. */
    remove: async (id: string): Promise<void> => this.request("DELETE", `/sandbox/faults/${encodeURIComponent(id)}`),
    /** `DELETE /sandbox/faults`: every one. */
    clear: async (): Promise<void> => this.request("DELETE", "/sandbox/faults"),
  };
}

async function answer<T>(method: string, path: string, response: APIResponse): Promise<T> {
  const text = await response.text();
  if (response.ok()) return (text ? JSON.parse(text) : undefined) as T;
  let body: SandboxError["body"];
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text.slice(0, 500) || undefined };
  }
  throw new SandboxError(method, path, response.status(), body);
}
