import { z } from "zod";
import { achStatuses, fednowExternalStatuses, fednowStatuses, networkTransferStatuses, opaqueId } from "@/lib/contract";
import { faultBody, parseIsoDuration, type FaultBody } from "@/lib/contract/sandbox-control";

/**
 * The bodies of the console's sandbox controls (`/api/sandbox/...`), checked in the console before anything is sent:
 * a fault's is the bank's own schema (lib/contract/sandbox-control.ts); the others are strict objects mirroring the
 * bank's (sandbox/control/*, docs/sandbox-control.md), whose route code the console does not import. The bank checks
 * again what only it knows (return and reject reason codes, whether a transition is valid now); its 400 then passes
 * through with its message. Shared with the UI.
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

/** An ISO 8601 duration of fixed length (weeks, days, hours, minutes, seconds), checked as the sandbox's clock checks it. */
const duration = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(64, `${field} must be at most 64 characters`)
    .superRefine((text, issues) => {
      const parsed = parseIsoDuration(text);
      if ("problem" in parsed) issues.addIssue({ code: "custom", message: `${field}: ${parsed.problem}` });
    });

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

/** `POST /api/sandbox/faults`: an HTTP fault (`match`) or a webhook fault (`webhooks`): the bank's own schema. */
export const faultBodySchema = faultBody;
export type { FaultBody };

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

/**
 * A fault id as the bank makes them (`flt_...`), or any id the console passes on for the bank to judge, as long as the
 * audit trail can store it (an id with a NUL is a 400, as every other id is: `opaqueId`).
 */
export const faultIdSchema = opaqueId;
