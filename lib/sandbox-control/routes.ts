import "server-only";
import { z } from "zod";
import { ConsoleError } from "@/lib/api/errors";
import type { ApiCall, RouteDefinition, RouteResolver } from "@/lib/api/route";
import type { AuditEntry } from "@/lib/audit/trail";
import { opaqueId } from "@/lib/contract";
import { consoleWebhookRefusal, isConsoleWebhook } from "@/lib/index/console-webhooks";
import { maskForViewer, shownInAnswer } from "@/lib/pii";
import { activeSandboxBank, type SandboxBank, type SandboxBankDependencies } from "./bank";
import { rebuildIndex, type IndexRebuildDependencies, type IndexState } from "./index-rebuild";
import {
  advanceBodySchema,
  faultBodySchema,
  faultIdSchema,
  movableResources,
  resetBodySchema,
  snapshotBodySchema,
  transitionBodySchemas,
  type MovableResource,
  type SnapshotFile,
} from "./schemas";

/**
 * The console's sandbox-only routes, `/api/sandbox/...` (docs/sandbox-control.md, "In the console"): the sandbox
 * bank's control API behind the console's session, permissions, audit trail and masking. The bank proxy
 * (/api/bank, lib/api/bank-allowlist.ts) never reaches `/sandbox/...`; these routes are the only way there.
 */
export interface SandboxRoutesDependencies extends SandboxBankDependencies {
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  recordAuditEvent(entry: AuditEntry & { after?: unknown }): Promise<void>;
  index: IndexRebuildDependencies;
  /** The console's address as the bank reaches it: a webhook pointing there is the console's own (lib/index). */
  consoleAddress?(): string;
}

/** The largest snapshot the console carries either way (the demo seed's is about 1 MB: docs/sandbox-control.md). */
export const snapshotMaxBytes = 64 * 1024 * 1024;
/** Reset and restore replace the whole bank: they may take longer than a bank call is usually given. */
const replaceTimeoutMs = (transport: { timeoutMs: number }) => Math.max(transport.timeoutMs, 120_000);

type Call = ApiCall<Record<string, string>, Record<string, never>, unknown>;
type Handler = (call: Call, bank: SandboxBank) => Promise<unknown>;

const noQuery = z.strictObject({});
const idParams = z.strictObject({ id: opaqueId });
const faultParams = z.strictObject({ id: faultIdSchema });

/** One transition a 409 refused, with the lists of valid targets inside the error object. */
class InvalidTransition extends ConsoleError {
  constructor(
    message: string,
    readonly lists: Record<string, string[]>,
  ) {
    super(409, "invalid_transition", message);
  }

  override toResponse(): Response {
    return Response.json({ error: { code: this.code, message: this.message, ...this.lists } }, { status: this.status });
  }
}

/** The audit record's `after`: the bank's answer as it came. */
const answered = (result: unknown) => result;

/** Counts by table of a snapshot file: what the audit trail keeps of it (never the rows). */
const tableCounts = (file: SnapshotFile) => Object.fromEntries(Object.entries(file.tables).map(([table, rows]) => [table, rows.length]));

/** The API's own time `YYYY-MM-DDTHH:MM:SSZ` with the colons a file name may not hold replaced. */
const fileTime = (now: string) => now.replace(/:/g, "-");

export function sandboxControlResolver(dependencies: SandboxRoutesDependencies): RouteResolver {
  const actorOf = (call: Call) => ({ id: call.user.id, email: call.user.email, role: call.user.role });
  const entryOf = (call: Call, bank: SandboxBank, action: string, targetId: string | null, before?: unknown): AuditEntry => ({
    actor: actorOf(call),
    environment: bank.environment,
    action,
    targetId,
    before,
    requestId: call.requestId,
  });

  /** A route whose handler runs only once the active environment is known to be the sandbox. */
  function route(definition: Omit<RouteDefinition, "handle" | "query" | "params"> & { params?: z.ZodType; handle: Handler }): RouteDefinition {
    return {
      ...definition,
      query: noQuery,
      params: definition.params ?? z.strictObject({}),
      handle: async (call) => definition.handle(call as Call, await activeSandboxBank(dependencies)),
    };
  }

  async function replaced<T extends object>(call: Call, bank: SandboxBank, answer: Promise<T>): Promise<T & IndexState> {
    const result = await answer;
    return { ...result, ...(await rebuildIndex(dependencies.index, bank.environment, call.user.email)) };
  }

  const clock = route({
    permission: "bank:read",
    handle: (_call, bank) => bank.send({ operation: "sandbox_clock", method: "GET", path: "/sandbox/clock" }),
  });

  const advance = route({
    permission: "sandbox:control",
    body: advanceBodySchema,
    async handle(call, bank) {
      const { by } = call.body as z.infer<typeof advanceBodySchema>;
      const before = await bank.send<{ now: string }>({ operation: "sandbox_clock", method: "GET", path: "/sandbox/clock" });
      return dependencies.audited(
        entryOf(call, bank, "sandbox.clock.advance", null, before),
        () => bank.send({ operation: "sandbox_clock_advance", method: "POST", path: "/sandbox/clock/advance", body: { by } }),
        { after: (now) => ({ ...(now as object), by }) },
      );
    },
  });

  const listFaults = route({
    permission: "bank:read",
    handle: (_call, bank) => bank.send({ operation: "sandbox_faults", method: "GET", path: "/sandbox/faults" }),
  });

  const addFault = route({
    permission: "sandbox:control",
    body: faultBodySchema,
    status: 201,
    handle: (call, bank) =>
      dependencies.audited(
        entryOf(call, bank, "sandbox.fault.add", null),
        () => bank.send({ operation: "sandbox_fault_add", method: "POST", path: "/sandbox/faults", body: call.body }),
        { after: answered },
      ),
  });

  const removeFault = route({
    permission: "sandbox:control",
    params: faultParams,
    async handle(call, bank) {
      const id = call.params.id!;
      await dependencies.audited(entryOf(call, bank, "sandbox.fault.remove", id), () =>
        bank.send({ operation: "sandbox_fault_remove", method: "DELETE", path: `/sandbox/faults/${encodeURIComponent(id)}` }),
      );
      return undefined;
    },
  });

  const clearFaults = route({
    permission: "sandbox:control",
    async handle(call, bank) {
      const before = await bank.send({ operation: "sandbox_faults", method: "GET", path: "/sandbox/faults" });
      await dependencies.audited(entryOf(call, bank, "sandbox.fault.clear", null, before), () =>
        bank.send({ operation: "sandbox_faults_clear", method: "DELETE", path: "/sandbox/faults" }),
      );
      return undefined;
    },
  });

  const reset = route({
    permission: "sandbox:reset",
    body: resetBodySchema,
    rateLimit: "sandboxReset",
    handle: (call, bank) =>
      dependencies.audited(
        entryOf(call, bank, "sandbox.reset", null, call.body),
        () =>
          replaced(
            call,
            bank,
            bank.send<object>(
              { operation: "sandbox_reset", method: "POST", path: "/sandbox/reset", body: call.body },
              { timeoutMs: replaceTimeoutMs(dependencies.transport) },
            ),
          ),
        { after: answered },
      ),
  });

  const download = route({
    permission: "sandbox:reset",
    rateLimit: "sandboxReset",
    async handle(call, bank) {
      const { now } = await bank.send<{ now: string }>({ operation: "sandbox_clock", method: "GET", path: "/sandbox/clock" });
      const file = await bank.send<SnapshotFile>(
        { operation: "sandbox_snapshot", method: "GET", path: "/sandbox/snapshot" },
        { maxAnswerBytes: snapshotMaxBytes, timeoutMs: replaceTimeoutMs(dependencies.transport) },
      );
      const text = JSON.stringify(file);
      // Recorded before the file leaves: every object in it is unmasked. When the record cannot be written, nothing is sent.
      await dependencies.recordAuditEvent({
        ...entryOf(call, bank, "sandbox.snapshot.download", null),
        after: { bytes: Buffer.byteLength(text), clock: now, rows: tableCounts(file) },
      });
      return new Response(text, {
        headers: {
          "content-type": "application/json",
          "content-disposition": `attachment; filename="sandbox-snapshot-${fileTime(now)}.json"`,
          "cache-control": "no-store",
        },
      });
    },
  });

  const restore = route({
    permission: "sandbox:reset",
    body: snapshotBodySchema,
    maxBodyBytes: snapshotMaxBytes,
    rateLimit: "sandboxReset",
    handle(call, bank) {
      const file = call.body as SnapshotFile;
      // The audit keeps the file's size and counts, never its rows.
      const before = { bytes: Buffer.byteLength(JSON.stringify(file)), rows: tableCounts(file) };
      return dependencies.audited(
        entryOf(call, bank, "sandbox.snapshot.restore", null, before),
        () =>
          replaced(
            call,
            bank,
            bank.send<object>(
              { operation: "sandbox_snapshot_restore", method: "PUT", path: "/sandbox/snapshot", body: file },
              { timeoutMs: replaceTimeoutMs(dependencies.transport) },
            ),
          ),
        { after: answered },
      );
    },
  });

  const transitions = Object.fromEntries(
    movableResources.map((resource) => [
      resource,
      {
        list: route({
          permission: "bank:read",
          params: idParams,
          handle: (call, bank) =>
            bank.send({
              operation: `sandbox_transitions_${resource}`,
              method: "GET",
              path: `/sandbox/${resource}/${encodeURIComponent(call.params.id!)}/transitions`,
            }),
        }),
        move: route({
          permission: "sandbox:control",
          params: idParams,
          body: transitionBodySchemas[resource],
          handle: (call, bank) => transition(call, bank, resource),
        }),
      },
    ]),
  ) as Record<MovableResource, { list: RouteDefinition; move: RouteDefinition }>;

  async function transition(call: Call, bank: SandboxBank, resource: MovableResource): Promise<unknown> {
    const id = call.params.id!;
    const path = `/${resource}/${encodeURIComponent(id)}`;
    const before = await bank.send<Record<string, unknown>>({ operation: `get_${resource}`, method: "GET", path });
    // The console's own subscriptions feed its index: stopping one here would silently stop the index (Settings has them).
    if (resource === "webhook" && isConsoleWebhook(before, dependencies.consoleAddress?.() ?? null)) {
      throw new ConsoleError(403, "console_webhook", consoleWebhookRefusal);
    }
    let moved: Record<string, unknown>;
    try {
      moved = await dependencies.audited(
        entryOf(call, bank, `${resource}.transition`, id, before),
        () =>
          bank.send<Record<string, unknown>>({
            operation: `sandbox_transition_${resource}`,
            method: "POST",
            path: `/sandbox${path}/transition`,
            body: call.body,
          }),
        { after: answered },
      );
    } catch (error) {
      if (!(error instanceof ConsoleError) || error.status !== 409) throw error;
      // The bank's 409 lists the valid targets in its body, which a refusal's error does not carry: read them now.
      const valid = await bank.send<Record<string, string[]>>({
        operation: `sandbox_transitions_${resource}`,
        method: "GET",
        path: `/sandbox${path}/transitions`,
      });
      throw new InvalidTransition(error.message, {
        valid: valid.valid ?? [],
        ...(valid.valid_external_status ? { valid_external_status: valid.valid_external_status } : {}),
      });
    }
    // Masked as a GET of the object through the proxy masks it (lib/pii.ts); the audit keeps the bank's answer.
    const kept = shownInAnswer(resource, call.user.role).map((field) => [field, moved[field]] as const);
    const shown = maskForViewer(resource, { ...moved });
    for (const [field, value] of kept) if (value !== undefined) shown[field] = value;
    return shown;
  }

  return ({ method, params }) => {
    const segments = params.path;
    if (!Array.isArray(segments)) return undefined;
    const at = (definition: RouteDefinition, routeParams: Record<string, unknown> = {}) => ({ route: definition, params: routeParams });
    const [first, second, third, ...rest] = segments;
    const key = `${method} ${segments.length}`;
    if (first === "clock" && key === "GET 1") return at(clock);
    if (first === "clock" && second === "advance" && key === "POST 2") return at(advance);
    if (first === "faults") {
      if (key === "GET 1") return at(listFaults);
      if (key === "POST 1") return at(addFault);
      if (key === "DELETE 1") return at(clearFaults);
      if (key === "DELETE 2") return at(removeFault, { id: second });
      return undefined;
    }
    if (first === "reset" && key === "POST 1") return at(reset);
    if (first === "snapshot" && key === "GET 1") return at(download);
    if (first === "snapshot" && key === "PUT 1") return at(restore);
    const movable = movableResources.find((resource) => resource === first);
    if (movable && second !== undefined && rest.length === 0) {
      if (third === "transitions" && method === "GET") return at(transitions[movable].list, { id: second });
      if (third === "transition" && method === "POST") return at(transitions[movable].move, { id: second });
    }
    return undefined;
  };
}
