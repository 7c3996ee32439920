import { z } from "zod";
import { achStatuses, fednowExternalStatuses, fednowStatuses, networkTransferStatuses } from "@/lib/contract";

/**
 * The bodies of the console's sandbox controls (`/api/sandbox/...`), checked in the console before anything is sent:
 * strict objects mirroring the sandbox bank's own (sandbox/control/*, docs/sandbox-control.md), which the console may
 * not import (it talks to the bank over HTTP only). The bank checks again what only it knows (return and reject
 * reason codes, whether a transition is valid now); its 400 then passes through with its message. Shared with the UI.
 */

/** The resources whose objects the console can move to a state (`/api/sandbox/{resource}/{id}/transition`). */
export const movableResources = ["ach", "network_transfer", "fednow", "webhook"] as const;
export type MovableResource = (typeof movableResources)[number];

const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${values.join(", ")}` });
const message = z.string({ error: "error must be a string" }).min(1, "error must not be empty").max(500, "error must be at most 500 characters");

/** Each resource's transition body, as the bank takes it. */
export const transitionBodySchemas = {
  ach: z.strictObject({ to: oneOf("to", achStatuses), error: message.optional() }),
  network_transfer: z.strictObject({ to: oneOf("to", networkTransferStatuses), error: message.optional() }),
  fednow: z
    .strictObject({
      to: oneOf("to", fednowStatuses).optional(),
      external_status: oneOf("external_status", fednowExternalStatuses).optional(),
      error: message.optional(),
      // The bank knows the ISO 20022 reason codes and names them when it refuses one.
      external_reject_reason: z
        .string({ error: "external_reject_reason must be a string" })
        .min(1, "external_reject_reason must not be empty")
        .max(10, "external_reject_reason must be a reason code such as AM04")
        .optional(),
    })
    .refine((body) => body.to !== undefined || body.external_status !== undefined, {
      message: "to is required (or external_status, where a sent payment stands at the receiving side)",
    }),
  webhook: z.strictObject({
    to: z.enum(["error", "disabled"], { error: "to must be one of error, disabled (a PATCH of the webhook with status enabled resets it)" }),
    error: message.optional(),
  }),
} as const satisfies Record<MovableResource, z.ZodType>;

/**
 * Any resource's transition body (`{"to": ..., ...}`): the fields every resource's body is made of. The route checks
 * the body against its resource's own schema (transitionBodySchemas).
 */
export const transitionBodySchema = z.strictObject({
  to: z.string({ error: "to must be a string" }).min(1, "to must not be empty").optional(),
  external_status: z.string({ error: "external_status must be a string" }).optional(),
  error: message.optional(),
  external_reject_reason: z.string({ error: "external_reject_reason must be a string" }).optional(),
});
export type TransitionBody = z.infer<typeof transitionBodySchema>;

/** An ISO 8601 duration of fixed length (weeks, days, hours, minutes, seconds), as the sandbox's clock takes it. */
const durationPattern = /^P(?=\d|T\d)(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:[.,]\d{1,3})?S)?)?$/;
const duration = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(64, `${field} must be at most 64 characters`)
    .regex(durationPattern, `${field}: expected an ISO 8601 duration of weeks, days, hours, minutes or seconds, such as PT1H or P1D`);

/** `POST /api/sandbox/clock/advance`. The bank refuses a zero duration and more than P366D, naming `by`. */
export const advanceBodySchema = z.strictObject({ by: duration("by") });
export type AdvanceBody = z.infer<typeof advanceBodySchema>;

/** The largest seed of ACH transfers a reset takes (the bank's maxSeedAch). */
export const maxResetAch = 1_000_000;
const seedProblem = `seed must be "demo", "empty" or a whole number of ACH transfers from 0 to ${maxResetAch}`;
/** `POST /api/sandbox/reset`. */
export const resetBodySchema = z.strictObject({
  seed: z.union([z.literal("demo"), z.literal("empty"), z.number().int().min(0).max(maxResetAch)], { error: seedProblem }),
});
export type ResetBody = z.infer<typeof resetBodySchema>;

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);
const matchPattern = /^(?:\*|(?:\*|GET|POST|PUT|PATCH|DELETE) \/[A-Za-z0-9._~*/-]*)$/;
const neverFaulted = (path: string) => path === "/health" || path === "/openapi.json" || path === "/sandbox" || path.startsWith("/sandbox/");

/** `POST /api/sandbox/faults`: an HTTP fault (`match`) or a webhook fault (`webhooks`), as the bank takes it. */
export const faultBodySchema = z
  .strictObject({
    match: z
      .string({ error: "match must be a string" })
      .regex(matchPattern, "match must be `*` or `<METHOD> <path>` (such as `GET /ach` or `PATCH /network_transfer/*`)")
      .refine((match) => !neverFaulted(match.slice(match.indexOf(" ") + 1)), "match: /sandbox/..., /health and /openapi.json are never faulted")
      .optional(),
    webhooks: z.enum(["delay", "drop", "duplicate"], { error: "webhooks must be delay, drop or duplicate" }).optional(),
    status: z.literal([429, 500, 503], { error: "status must be 429, 500 or 503" }).optional(),
    retry_after: whole("retry_after", 0, 86_400).optional(),
    latency_ms: whole("latency_ms", 1, 60_000).optional(),
    drop: z.boolean({ error: "drop must be true or false" }).optional(),
    delay_ms: whole("delay_ms", 1, 3_600_000).optional(),
    share: z.number({ error: "share must be a number" }).min(0, "share must be between 0 and 1").max(1, "share must be between 0 and 1").optional(),
    seed: z.string({ error: "seed must be a string" }).min(1, "seed must not be empty").max(100, "seed must be at most 100 characters").optional(),
    times: whole("times", 1, 1_000_000).optional(),
    expires_in: duration("expires_in").optional(),
  })
  .superRefine((body, issues) => {
    const problem = (message: string) => issues.addIssue({ code: "custom", message });
    if (body.match === undefined && body.webhooks === undefined) return problem("match or webhooks is required");
    if (body.match !== undefined && body.webhooks !== undefined) return problem("match and webhooks cannot be combined: one fault each");
    if (body.webhooks !== undefined) {
      for (const field of ["status", "retry_after", "latency_ms", "drop"] as const) {
        if (body[field] !== undefined) problem(`${field} is for match faults; a webhooks fault takes delay_ms, share, seed, times, expires_in`);
      }
      if (body.webhooks === "delay" && body.delay_ms === undefined) problem("delay_ms is required with webhooks: delay");
      if (body.webhooks !== "delay" && body.delay_ms !== undefined) problem("delay_ms is only for webhooks: delay");
      return;
    }
    if (body.delay_ms !== undefined) problem("delay_ms is for webhooks: delay; a match fault takes latency_ms");
    if (body.status === undefined && body.latency_ms === undefined && !body.drop) problem("status, latency_ms or drop is required with match");
    if (body.status !== undefined && body.drop) problem("drop cannot be combined with status: a dropped connection has no status");
    if (body.retry_after !== undefined && body.status === undefined) problem("retry_after needs status");
  });
export type FaultBody = z.infer<typeof faultBodySchema>;

/**
 * `PUT /api/sandbox/snapshot`: a file `GET /api/sandbox/snapshot` gave. Only its envelope is checked here; the bank
 * checks every table and column and names what is wrong.
 */
export const snapshotBodySchema = z.strictObject({
  format: z.literal("sandbox-bank-snapshot", { error: 'format must be "sandbox-bank-snapshot": a file downloaded from the sandbox page' }),
  version: z.number({ error: "version must be a number" }),
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()), { error: "each table must be a list of rows" }), {
    error: "tables must be an object of tables",
  }),
});
export type SnapshotFile = z.infer<typeof snapshotBodySchema>;

/** A fault id as the bank makes them (`flt_...`), or any id the console passes on for the bank to judge. */
export const faultIdSchema = z.string().min(1, "must not be empty").max(100, "at most 100 characters");
