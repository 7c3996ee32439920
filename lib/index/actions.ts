import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { BankClient } from "@/lib/bank/client";
import type { Webhook } from "@/lib/contract";
import { isEnvironment, type Environment } from "@/lib/credentials/environments";
import type { Permission } from "@/lib/permissions";
import { backfillLists, indexContents, receiverSummary, subscriptionsView } from "./actions-overview";
import { resetBackfill } from "./backfill";
import { purgeEnvironment } from "./retention";
import type { SubscriptionState } from "./subscriptions";
import type { ConsoleDb } from "@/lib/db/console-db";
import { timeInMessage } from "@/lib/format/time";

export interface IndexActionState {
  error: string | null;
  done: string | null;
}

/** What the index actions need from the console; lib/actions/index-settings.ts wires the real ones. */
export interface IndexActionDependencies {
  /** The signed-in user holding `permission`; otherwise it does not return (redirect to sign-in, or 403). */
  requireUser(permission: Permission): Promise<StaffUser>;
  db(): Promise<ConsoleDb>;
  /** The console's bank client of `environment`; null when that environment has no credentials. */
  clientFor(environment: Environment): Promise<BankClient | null>;
  /** lib/index/runtime.ts: receiver credentials made if missing, then every subscription made current. */
  setUpSubscriptions(environment: Environment, actor: string): Promise<SubscriptionState[]>;
  /** lib/index/runtime.ts: a new receiver secret, then every subscription re-registered with it. */
  rotateReceiver(environment: Environment, actor: string): Promise<SubscriptionState[]>;
  /** lib/index/runtime.ts: walks every list in the background from where each stands. */
  startBackfill(environment: Environment): void;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  newRequestId(): string;
  /** Called after a change, so the settings page shows it. */
  changed(): void;
}

/** One audited change, planned after its checks passed: what the audit records, what runs, what the admin is told. */
interface Planned<T> {
  action: string;
  targetId: string;
  before: unknown;
  perform(actor: StaffUser): Promise<T>;
  after(result: T): unknown;
  done(result: T): string;
}

const refused = (error: string): IndexActionState => ({ error, done: null });
const environmentProblem = "environment: expected sandbox or production";
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Per event, what `ensureSubscriptions` did: the audit's after, without anything secret (there is none in a state). */
const summarizeStates = (states: SubscriptionState[]) => states.map(({ event, webhookId, status, action }) => ({ event, webhookId, status, action }));
type StateSummary = ReturnType<typeof summarizeStates>[number];
function countActions(states: StateSummary[]): string {
  const counts = new Map<string, number>();
  for (const state of states) counts.set(state.action, (counts.get(state.action) ?? 0) + 1);
  return [...counts].map(([action, count]) => `${count} ${action}`).join(", ");
}

/**
 * The admin's controls of the index of the bank (docs/bank-index.md), as server actions: each checks `index:manage`,
 * validates its form (an error naming the field), and is audited; a failure of the bank or the database is recorded
 * as a failed audit record and told to the admin rather than thrown.
 */
export function indexActions(dependencies: IndexActionDependencies) {
  /** The checks every action shares, then its audited change; `done` describes what `perform` returned. */
  async function indexChange<T>(
    form: FormData,
    plan: (environment: Environment, db: ConsoleDb) => Promise<Planned<T> | { refusal: string }>,
  ): Promise<IndexActionState> {
    const actor = await dependencies.requireUser("index:manage");
    const environment = form.get("environment");
    if (!isEnvironment(environment)) return refused(environmentProblem);
    const db = await dependencies.db();
    const planned = await plan(environment, db);
    if ("refusal" in planned) return refused(planned.refusal);
    const entry = {
      actor,
      environment,
      action: planned.action,
      targetId: planned.targetId,
      before: planned.before,
      requestId: dependencies.newRequestId(),
    };
    let result: T;
    try {
      result = await dependencies.audited(entry, () => planned.perform(actor), { after: planned.after });
    } catch (error) {
      return refused(`${planned.action} failed: ${messageOf(error)}`);
    }
    dependencies.changed();
    return { error: null, done: planned.done(result) };
  }

  return {
    /** A new receiver secret for the environment; the bank's webhooks are re-registered with it at once. */
    async rotateReceiverSecret(_previous: IndexActionState, form: FormData): Promise<IndexActionState> {
      return indexChange(form, async (environment, db) => ({
        action: "index.receiver.rotate",
        targetId: environment,
        before: { receiver: await receiverSummary(db, environment) },
        perform: async (actor) => {
          const states = await dependencies.rotateReceiver(environment, actor.email);
          return { receiver: await receiverSummary(db, environment), subscriptions: summarizeStates(states) };
        },
        after: (rotated) => rotated,
        done: ({ subscriptions }) => `Rotated the ${environment} receiver secret; subscriptions: ${countActions(subscriptions)}`,
      }));
    },

    /** Creates the missing subscriptions and updates stale ones; for production this switches the index on. */
    async setUpSubscriptions(_previous: IndexActionState, form: FormData): Promise<IndexActionState> {
      return indexChange(form, async (environment, db) => ({
        action: "index.subscriptions.ensure",
        targetId: environment,
        before: { receiver: await receiverSummary(db, environment) },
        perform: (actor) => dependencies.setUpSubscriptions(environment, actor.email),
        after: summarizeStates,
        done: (states) => `Set up the ${environment} subscriptions: ${countActions(states)}`,
      }));
    },

    /** Back to `enabled` for one of the console's own subscriptions that the bank put in `error`. */
    async resetSubscription(_previous: IndexActionState, form: FormData): Promise<IndexActionState> {
      return indexChange<Webhook>(form, async (environment) => {
        const webhookId = form.get("webhookId");
        if (typeof webhookId !== "string" || webhookId === "") return { refusal: "webhookId: expected the id of one of the console's subscriptions" };
        const client = await dependencies.clientFor(environment);
        const view = await subscriptionsView(client, environment);
        if (view.kind !== "listed")
          return {
            refusal:
              view.kind === "unreachable"
                ? `The ${environment} bank could not be asked: ${view.reason}`
                : `The ${environment} environment has no bank credentials.`,
          };
        const subscription = view.subscriptions.find((candidate) => candidate.webhookId === webhookId);
        if (!subscription) return { refusal: `webhookId: ${webhookId} is not one of the console's ${environment} subscriptions` };
        if (subscription.status !== "error") return { refusal: `webhookId: ${webhookId} is ${subscription.status}, not in error` };
        return {
          action: "index.subscription.reset",
          targetId: webhookId,
          before: { event: subscription.event, status: subscription.status, error: subscription.error },
          perform: () => client!.patch_webhook(webhookId, { status: "enabled" }),
          after: (webhook) => ({ event: subscription.event, status: webhook.status, error: webhook.error }),
          done: (webhook) => `Reset the ${subscription.event} subscription: ${webhook.status}`,
        };
      });
    },

    /** `resume`: continue every list from its kept cursor. `repair`: forget the cursors and walk every list again. */
    async startBackfill(_previous: IndexActionState, form: FormData): Promise<IndexActionState> {
      return indexChange(form, async (environment, db) => {
        const mode = form.get("mode");
        if (mode !== "resume" && mode !== "repair") return { refusal: "mode: expected resume or repair" };
        if (!(await dependencies.clientFor(environment))) return { refusal: `The ${environment} environment has no bank credentials.` };
        const lists = await backfillLists(db, environment);
        const walking = lists.find((list) => list.walk === "in progress");
        if (walking)
          return {
            refusal: `A walk is in progress (${walking.resource}, last page at ${walking.updatedAt ? timeInMessage(walking.updatedAt) : "none yet"}); wait until it finishes or stops.`,
          };
        const totals = {
          objects: lists.reduce((sum, list) => sum + list.objects, 0),
          listsDone: lists.filter((list) => list.walk === "done").length,
          lists: lists.length,
        };
        return {
          action: "index.backfill.start",
          targetId: environment,
          before: totals,
          perform: async () => {
            if (mode === "repair") await resetBackfill(db, environment);
            dependencies.startBackfill(environment);
            return mode;
          },
          after: () => ({ mode }),
          done: () => (mode === "repair" ? `Walking every ${environment} list again from its first page` : `Backfill of ${environment} started`),
        };
      });
    },

    /** Everything the index holds of the environment: objects, versions, received notifications, backfill progress. */
    async purgeIndex(_previous: IndexActionState, form: FormData): Promise<IndexActionState> {
      return indexChange(form, async (environment, db) => {
        const held = async () => {
          const contents = await indexContents(db, environment);
          return {
            objects: contents.byResource.reduce((sum, row) => sum + row.objects + row.gone, 0),
            versions: contents.versions,
            notifications: contents.inbox.total,
          };
        };
        return {
          action: "index.purge",
          targetId: environment,
          before: await held(),
          perform: async () => {
            await purgeEnvironment(db, environment);
            return held();
          },
          after: (remaining) => remaining,
          done: () => `Purged the ${environment} index`,
        };
      });
    },
  };
}
