import { z } from "zod";
import type { AuditEntry } from "@/lib/audit/trail";
import { findOperation, type BankClient } from "@/lib/bank/client";
import { opaqueId, pathParameters, type Operation } from "@/lib/contract";
import { listedResources } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { Permission, Role } from "@/lib/permissions";
import { isMaskedField, maskedFields, maskForViewer, shownInAnswer, type MaskedResource } from "@/lib/pii";
import type { ExposedOperation } from "./bank-allowlist";
import { bankNotConfigured } from "./errors";
import { defaultOutageRetryAfterSeconds, onlyFromTheBank } from "./index-fallback";
import type { RouteDefinition } from "./route";

/**
 * The proxy's unmasked reads (docs/reviews.md, docs/audit-trail.md): `POST <object path>/reveal`, personal data for
 * `pii:reveal`, the fields asked for or all of them, and `POST <object path>/userdata`, the userdata an editor starts
 * from. Each is a POST so that no link or prefetch can unmask anything (the wrapper checks the Origin of every
 * non-GET), is audited before the answer leaves, and is never stored by a cache.
 */

/** What an unmasked read needs of the console (lib/api/bank-proxy.ts's dependencies hold them). */
export interface UnmaskedReadDependencies {
  activeEnvironment(): Promise<Environment>;
  bankClient(environment: Environment): Promise<BankClient | null>;
  /** Records the read; throws when the record cannot be written (then nothing is unmasked). */
  recordAuditEvent(entry: AuditEntry & { after?: unknown }): Promise<void>;
  /** How long a reveal stays shown before the page masks it again (REVEAL_MINUTES); its record keeps the expiry. */
  revealMinutes?(): number;
  /**
   * When to try again a read only the bank answers, failing before the breaker opens without the bank saying when
   * (BANK_BREAKER_HALF_OPEN_SECONDS; default 15): its `Retry-After`.
   */
  outageRetryAfterSeconds?: number;
}

/** The setting's default (lib/env/schema.ts), for a proxy wired without it (tests, benchmarks). */
const defaultRevealMinutes = 10;

/** A proxy route matched by method and path, as lib/api/bank-proxy.ts resolves them. */
export interface UnmaskedReadRoute {
  operation: Operation;
  pattern: RegExp;
  parameterNames: string[];
  route: RouteDefinition;
}

export const revealSegment = "reveal";
export const userdataSegment = "userdata";

const reasonText = "a reason is required (free text or a ticket reference)";
/** A reveal says why: free text or a ticket reference, required. */
const revealReason = z.string({ error: reasonText }).trim().min(1, reasonText).max(500, "at most 500 characters");

/** The body of a reveal that is a whole export (lib/export): its reason alone, every column being unmasked. */
export const revealBody = z.strictObject(
  { reason: revealReason },
  { error: 'expected {"reason": "<why, or a ticket reference>"}: a reveal needs a reason' },
);

/** "Reveal all" is said, never assumed: a reveal names its fields or asks for all of them. */
export const revealAll = "all";
const fieldName = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The top-level fields of `resource` a reveal may name: those the contract lists that masking hides, wholly or in part.
 * A field the bank adds later is masked too, and shown by "all".
 */
export function revealableFields(resource: MaskedResource): string[] {
  const listed = (listedResources as Partial<Record<string, { schema: { shape: Record<string, unknown> } }>>)[resource];
  return listed ? Object.keys(listed.schema.shape).filter((field) => isMaskedField(resource, field)) : [];
}

/** A reveal's body for one kind: why, and which fields (`["date_of_birth"]`, or `"all"`); 400 naming a bad field. */
export function revealRequest(resource: MaskedResource) {
  const known = revealableFields(resource);
  const kind = resource.replaceAll("_", " ");
  const field = z.string({ error: "expected a field name" }).refine((name) => fieldName.test(name) && known.includes(name), {
    error: (issue) => `${JSON.stringify(issue.input)} is not a masked field of a ${kind}; its masked fields are ${known.join(", ")}`,
  });
  return z.strictObject(
    {
      reason: revealReason,
      fields: z.union([z.literal(revealAll), z.array(field).min(1, 'name at least one field, or ask for "all"').max(64, "at most 64 fields")], {
        error: `expected the fields to reveal: ["date_of_birth"], several, or "${revealAll}"`,
      }),
    },
    { error: 'expected {"reason": "<why, or a ticket reference>", "fields": ["<field>", …] or "all"}: a reveal needs a reason and its fields' },
  );
}

type RevealRequest = z.infer<ReturnType<typeof revealRequest>>;

const topField = (path: string) => path.split(/[.[]/)[0]!;
const withoutMilliseconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The object with only `fields` unmasked (and what `role` sees in every answer): the rest masked as a GET shows it. */
function revealedOnly(resource: MaskedResource, object: Record<string, unknown>, fields: readonly string[], role: Role) {
  const shown = maskForViewer(resource, structuredClone(object));
  for (const field of [...fields, ...shownInAnswer(resource, role)]) if (Object.hasOwn(object, field)) shown[field] = object[field];
  return shown;
}

/**
 * `POST <object path>/<segment>`: an unmasked read for roles holding `permission`, recorded before the answer leaves.
 * `answer` says what of the bank's object the caller gets and what the record keeps of the read.
 */
export function compileUnmaskedRead<B extends Record<string, unknown> | undefined>(
  exposed: ExposedOperation,
  dependencies: UnmaskedReadDependencies,
  unmasked: {
    segment: string;
    permission: Permission;
    action: string;
    body?: z.ZodType<B>;
    answer(object: Record<string, unknown>, body: B, role: Role): { shown: unknown; recorded?: unknown };
    /** How a failed read is told (the read that opens an editor is refused as changes are while the bank is down). */
    onReadFailure?: (error: unknown) => never;
  },
): UnmaskedReadRoute {
  const read = findOperation(exposed.operationId);
  const operation: Operation = { ...read, method: "post", path: `${read.path}/${unmasked.segment}` };
  const parameterNames = pathParameters(read.path);
  const route: RouteDefinition<Record<string, string>, Record<string, never>, B> = {
    permission: unmasked.permission,
    params: z.strictObject(Object.fromEntries(parameterNames.map((name) => [name, opaqueId]))) as z.ZodType<Record<string, string>>,
    query: z.strictObject({}) as z.ZodType<Record<string, never>>,
    body: unmasked.body,
    async handle(call) {
      const environment = await dependencies.activeEnvironment();
      const bank = await dependencies.bankClient(environment);
      if (!bank) throw bankNotConfigured(environment);
      const reading = bank.call(exposed.operationId, { params: call.params });
      const object = (await (unmasked.onReadFailure ? reading.catch(unmasked.onReadFailure) : reading)) as Record<string, unknown>;
      const { shown, recorded } = unmasked.answer(object, call.body, call.user.role);
      // Recorded before the answer leaves: when the record cannot be written, nothing is unmasked.
      await dependencies.recordAuditEvent({
        actor: { id: call.user.id, email: call.user.email, role: call.user.role },
        environment,
        targetId: call.params.id ?? null,
        requestId: call.requestId,
        action: unmasked.action,
        ...(recorded === undefined ? {} : { after: recorded }),
      });
      return Response.json(shown, { headers: { "cache-control": "no-store" } });
    },
  };
  return {
    operation,
    pattern: new RegExp(`^${operation.path.replace(/\{[a-z_]+\}/g, "([^/]+)")}$`),
    parameterNames,
    route: route as RouteDefinition,
  };
}

/**
 * The reveal of one object's personal data (`pii:reveal`): the fields named, or all with `"all"`. Its record says
 * what was asked for (`requested`), which masked values the answer showed (`fields`, dotted paths), why (`reason`)
 * and when the page masks them again (`expiresAt`).
 */
export function revealRoute(exposed: ExposedOperation & { resource: MaskedResource }, dependencies: UnmaskedReadDependencies): UnmaskedReadRoute {
  const resource = exposed.resource;
  return compileUnmaskedRead<RevealRequest>(exposed, dependencies, {
    segment: revealSegment,
    permission: "pii:reveal",
    action: `${resource}.reveal`,
    body: revealRequest(resource),
    // The bank's own object, unmasked: while the bank is not answering, a 503 with Retry-After, never the index's copy.
    onReadFailure(error) {
      throw onlyFromTheBank(error, "a reveal reads the bank's own object", dependencies.outageRetryAfterSeconds ?? defaultOutageRetryAfterSeconds);
    },
    answer(object, body, role) {
      const named = body.fields === revealAll ? null : body.fields;
      const minutes = dependencies.revealMinutes?.() ?? defaultRevealMinutes;
      const shownFields = maskedFields(resource, object).filter((path) => !named || named.includes(topField(path)));
      return {
        shown: named ? revealedOnly(resource, object, named, role) : object,
        recorded: {
          requested: body.fields,
          fields: shownFields,
          reason: body.reason,
          expiresAt: withoutMilliseconds(new Date(Date.now() + minutes * 60_000)),
        },
      };
    },
  });
}
