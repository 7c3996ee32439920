import type { Hono } from "hono";
import { faultBody as faultBodySchema, parseIsoDuration, type FaultBody } from "@/lib/contract/sandbox-control";
import { z } from "zod";
import type { SandboxContext } from "../context";
import type { SandboxDb } from "../db";
import { newId } from "../events/emit";
import { notFound } from "../http/errors";
import { readJsonBody } from "../http/request";
import type { AppEnv } from "../routes/app-env";
import { SeededRandom } from "../seed/random";
import { controlOperations } from "./openapi-paths";

/**
 * Failures on demand (`/sandbox/faults`): HTTP answers the sandbox fails, slows or drops (./http-faults.ts) and
 * webhook deliveries it delays, drops or duplicates (./webhook-faults.ts). Faults are settings of one running
 * sandbox, not bank data: they live in this process's memory, so a restart clears them, and a reset or a snapshot
 * leaves them as they are.
 */

/** An `expires_in` the schema has checked, in milliseconds. */
function expiresInMs(text: string): number {
  const parsed = parseIsoDuration(text);
  if ("problem" in parsed) throw new Error(`expires_in: ${parsed.problem}`);
  return parsed.ms;
}

const faultBody = faultBodySchema.meta({ id: "SandboxFaultRequest" });

const fault = z
  .strictObject({
    id: z.string(),
    match: z.string().nullable(),
    webhooks: z.enum(["delay", "drop", "duplicate"]).nullable(),
    status: z.literal([429, 500, 503]).nullable(),
    retry_after: z.number().nullable(),
    latency_ms: z.number().nullable(),
    drop: z.boolean(),
    delay_ms: z.number().nullable(),
    share: z.number(),
    seed: z.string(),
    times: z.number().nullable().describe("Applications left; the fault is removed when it reaches 0 (null: unlimited)"),
    expires_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "SandboxFault" });
export type Fault = z.infer<typeof fault>;

/** A stored fault: its answer shape, plus what applying it needs. */
interface ActiveFault {
  answer: Fault;
  /** Matches a request's method and path (HTTP faults only). */
  matches?: (method: string, path: string) => boolean;
  /** Decides, request by request, whether the fault applies to a `share` of them; seeded so a run can be replayed. */
  random: SeededRandom;
}

function matcherOf(match: string): (method: string, path: string) => boolean {
  if (match === "*") return () => true;
  const [method, path] = match.split(" ") as [string, string];
  const segments = path.split("/").map((segment) => (segment === "*" ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  const regex = new RegExp(`^${segments.join("/")}$`);
  return (requestMethod, requestPath) => (method === "*" || method === requestMethod) && regex.test(requestPath);
}

/** The faults of one running sandbox, oldest first: the first one that matches and is chosen applies. */
export class FaultStore {
  private faults: ActiveFault[] = [];
  /** Deliveries already delayed or made as a duplicate: sent as they are at their next claim (./webhook-faults.ts). */
  private readonly exempt = new Set<string>();

  add(body: FaultBody, now: Date): Fault {
    const id = newId("flt");
    const answer: Fault = {
      id,
      match: body.match ?? null,
      webhooks: body.webhooks ?? null,
      status: body.status ?? null,
      retry_after: body.retry_after ?? null,
      latency_ms: body.latency_ms ?? null,
      drop: body.drop ?? false,
      delay_ms: body.delay_ms ?? null,
      share: body.share ?? 1,
      seed: body.seed ?? id,
      times: body.times ?? null,
      expires_at: body.expires_in === undefined ? null : new Date(now.getTime() + expiresInMs(body.expires_in)).toISOString(),
      created_at: now.toISOString(),
    };
    this.faults.push({ answer, matches: body.match === undefined ? undefined : matcherOf(body.match), random: new SeededRandom(answer.seed) });
    return answer;
  }

  list(now: Date): Fault[] {
    this.removeExpired(now);
    return this.faults.map((active) => active.answer);
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((active) => active.answer.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The HTTP fault that applies to this request, counted as applied (undefined: answer it normally). */
  takeForRequest(method: string, path: string, now: Date): Fault | undefined {
    return this.take(now, (active) => active.matches?.(method, path) ?? false);
  }

  /** The webhook fault that applies to the next delivery, counted as applied. */
  takeForDelivery(now: Date): Fault | undefined {
    return this.take(now, (active) => active.answer.webhooks !== null);
  }

  /** Lets delivery `id` be sent as it is at its next claim (it was delayed, or is a duplicate). */
  exemptDelivery(id: string): void {
    this.exempt.add(id);
  }

  /** Whether delivery `id` is exempt this once (the exemption is used up). */
  useExemption(id: string): boolean {
    return this.exempt.delete(id);
  }

  private take(now: Date, applies: (active: ActiveFault) => boolean): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    this.removeExpired(now);
    const chosen = this.faults.find((active) => applies(active) && (active.answer.share === 1 || active.random.next() < active.answer.share));
    if (!chosen) return undefined;
    const { answer } = chosen;
    if (answer.times !== null && --answer.times === 0) this.remove(answer.id);
    return answer;
  }

  private removeExpired(now: Date): void {
    this.faults = this.faults.filter((active) => active.answer.expires_at === null || Date.parse(active.answer.expires_at) > now.getTime());
  }
}

/**
 * One store per running sandbox, found from its database handle: the HTTP middleware and the delivery worker share
 * that handle and nothing else, and sandboxes started side by side (tests) keep their faults apart.
 */
const stores = new WeakMap<SandboxDb, FaultStore>();
export function faultsOf(ctx: { db: SandboxDb }): FaultStore {
  let store = stores.get(ctx.db);
  if (!store) stores.set(ctx.db, (store = new FaultStore()));
  return store;
}

/** POST, GET and DELETE /sandbox/faults, and DELETE /sandbox/faults/{id}. */
export function mountFaults(app: Hono<AppEnv>, ctx: SandboxContext): void {
  const faults = faultsOf(ctx);
  app.post("/sandbox/faults", async (c) => c.json(faults.add(await readJsonBody(c, faultBody), ctx.now()), 201));
  app.get("/sandbox/faults", (c) => c.json({ data: faults.list(ctx.now()) }));
  app.delete("/sandbox/faults", (c) => {
    faults.clear();
    return c.body(null, 204);
  });
  app.delete("/sandbox/faults/:id", (c) => {
    const id = c.req.param("id");
    if (!faults.remove(id)) throw notFound(`No fault ${id}`);
    return c.body(null, 204);
  });
}

const faultList = z.strictObject({ data: z.array(fault) }).meta({ id: "SandboxFaultList" });
controlOperations.push(
  {
    method: "post",
    path: "/sandbox/faults",
    operationId: "sandbox_create_fault",
    summary: "Make the sandbox fail, slow or drop matching requests, or delay, drop or duplicate webhook deliveries",
    description:
      "`match` (`*` or `<METHOD> <path>`, `*` for one path segment) with `status` (and `retry_after`), `latency_ms` or `drop`; or `webhooks` (`delay` with `delay_ms`, `drop`, `duplicate`). `share` applies it to that fraction of matching requests (seeded by `seed`), `times` removes it after that many, `expires_in` (ISO 8601) after that long. Never applies to /sandbox/..., /health or /openapi.json. Kept in memory: a restart clears it.",
    body: faultBody,
    response: { status: 201, description: "The fault as stored", schema: fault },
  },
  {
    method: "get",
    path: "/sandbox/faults",
    operationId: "sandbox_list_faults",
    summary: "The active faults, oldest first",
    response: { status: 200, description: "Every active fault", schema: faultList },
  },
  {
    method: "delete",
    path: "/sandbox/faults",
    operationId: "sandbox_delete_faults",
    summary: "Remove every fault",
    response: { status: 204, description: "No fault is left" },
  },
  {
    method: "delete",
    path: "/sandbox/faults/{id}",
    operationId: "sandbox_delete_fault",
    summary: "Remove one fault",
    response: { status: 204, description: "Removed" },
    errors: { 404: "No such fault (removed, used up or expired)" },
  },
);
