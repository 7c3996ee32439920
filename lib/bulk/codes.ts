import type { Permission } from "@/lib/permissions";

/**
 * Bulk actions (docs/console-actions.md, "Bulk actions"): the vocabulary shared by the server and the bar. Safe for
 * the browser.
 */

/** At most this many objects in one bulk action. */
export const bulkLimit = 500;

export interface BulkActionDefinition {
  /** The resource it acts on: a resource name of lib/resources, or "review" for the review queue. */
  resource: "network_transfer" | "webhook" | "review";
  /** What the role must hold to ask for it, and what each row is sent with. */
  permission: Permission;
  /** Held as one change request where four-eyes holds for the environment (bank changes; reviews are the console's). */
  fourEyes: boolean;
  label: string;
  /** What it does to one object, for the confirmation and the approver ("sets userdata.ticket", "enables"). */
  verb: string;
}

export const bulkActions = {
  "userdata.set": {
    resource: "network_transfer",
    permission: "bank:userdata:write",
    fourEyes: true,
    label: "Set userdata key",
    verb: "sets one userdata key",
  },
  "userdata.remove": {
    resource: "network_transfer",
    permission: "bank:userdata:write",
    fourEyes: true,
    label: "Remove userdata key",
    verb: "removes one userdata key",
  },
  "webhook.enable": { resource: "webhook", permission: "webhook:write", fourEyes: true, label: "Enable", verb: "enables" },
  "webhook.disable": { resource: "webhook", permission: "webhook:write", fourEyes: true, label: "Disable", verb: "disables" },
  "webhook.reset": { resource: "webhook", permission: "webhook:write", fourEyes: true, label: "Reset", verb: "resets (error → enabled)" },
  "review.assign": { resource: "review", permission: "review:decide", fourEyes: false, label: "Assign to a reviewer", verb: "assigns" },
  "review.unassign": { resource: "review", permission: "review:decide", fourEyes: false, label: "Unassign", verb: "unassigns" },
} as const satisfies Record<string, BulkActionDefinition>;

export type BulkActionName = keyof typeof bulkActions;
export const bulkActionNames = Object.keys(bulkActions) as BulkActionName[];
export const isBulkAction = (value: unknown): value is BulkActionName => typeof value === "string" && value in bulkActions;

/** The bulk actions offered on a resource's list. */
export const bulkActionsFor = (resource: string): BulkActionName[] => bulkActionNames.filter((name) => bulkActions[name].resource === resource);

/** The audit action (and change request action) of a bulk action: `bulk.userdata.set`. */
export const bulkAuditAction = (action: BulkActionName) => `bulk.${action}`;

export const rowStates = ["pending", "sending", "done", "refused", "failed", "skipped", "unknown"] as const;
export type RowState = (typeof rowStates)[number];
/** Rows "Retry failed rows" sends again: the bank refused them, it failed, or a restart left it unknown whether they were applied. */
export const retriedStates = ["refused", "failed", "unknown"] as const satisfies readonly RowState[];

export const rowStateLabels: Record<RowState, string> = {
  pending: "Waiting",
  sending: "Sending",
  done: "Done",
  refused: "Refused",
  failed: "Failed",
  skipped: "Skipped: changed meanwhile",
  unknown: "Unknown",
};

export type JobStatus = "awaiting_approval" | "running" | "done" | "closed";

/** A bulk job as `GET /api/bulk/{id}` answers it. */
export interface BulkJobView {
  id: string;
  action: BulkActionName;
  resource: string;
  environment: string;
  params: Record<string, unknown>;
  status: JobStatus;
  total: number;
  counts: Record<RowState, number>;
  /** The change request holding it, where four-eyes holds (named so that it is not read as a held single change). */
  changeRequest: { id: number; url: string } | null;
  maker: string;
  createdAt: string;
  finishedAt: string | null;
  rows: Array<{ id: string; state: RowState; reason: string | null }>;
}

/** Rows settled (anything but waiting or sending): how far the progress bar is. */
export const settledCount = (counts: Record<RowState, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0) - counts.pending - counts.sending;
