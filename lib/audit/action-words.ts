import { reviewActionLabels } from "@/lib/reviews/words";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";

/**
 * An audit record's action in words, for the audit log (the code stays beside it: the filters and exports use codes).
 * Client-safe. Actions about a kind of bank object (`person_application.reveal`) name the kind; an action this table
 * does not know yet is shown as its code alone (null here), never guessed.
 */
const actionWords: Readonly<Record<string, string>> = {
  ...reviewActionLabels,
  "search.masked_fields": "Search over masked fields",
  "audit.export": "Audit log exported",
  "events.export": "Bank events exported",
  "approvals.setting": "Four-eyes setting changed",
  "change.request": "Change held for a second person",
  "change.approve": "Held change approved",
  "change.reject": "Held change rejected",
  "change.withdraw": "Held change withdrawn",
  "credentials.save": "Bank credentials saved",
  "credentials.clear": "Saved bank credentials removed",
  "staff.create": "Staff user created",
  "staff.role_change": "Staff role changed",
  "staff.lock": "Staff user locked",
  "staff.unlock": "Staff user unlocked",
  "staff.remove": "Staff user removed",
  "staff.sessions.end": "Staff user's sessions ended",
  "staff.sign_in_lockout.clear": "Sign-in lockout cleared",
  "view.save": "Saved view saved",
  "view.remove": "Saved view removed",
  "simulation.run": "Sandbox simulation run",
  "card.uxt_access_token.create": "Card toolkit access token issued",
  "webhook.create": "Webhook created",
  "webhook.update": "Webhook changed",
  "webhook.delete": "Webhook deleted",
  "webhook.notification.resend": "Webhook notification resent",
  "webhook.test": "Test notification sent to a webhook",
  "index.backfill.start": "Index backfill started",
  "index.purge": "Index purged",
  "index.receiver.rotate": "Index receiver secret rotated",
  "index.subscription.reset": "Index subscription reset",
  "index.subscriptions.ensure": "Index subscriptions checked",
  "sandbox.reset": "Sandbox reset",
  "sandbox.clock.advance": "Sandbox clock advanced",
  "sandbox.fault.add": "Sandbox fault added",
  "sandbox.fault.remove": "Sandbox fault removed",
  "sandbox.fault.clear": "Sandbox faults cleared",
  "sandbox.snapshot.download": "Sandbox snapshot downloaded",
  "sandbox.snapshot.restore": "Sandbox snapshot restored",
  "bulk.userdata.set": "Userdata key set on many network transfers",
  "bulk.userdata.remove": "Userdata key removed from many network transfers",
  "bulk.webhook.enable": "Many webhooks enabled",
  "bulk.webhook.disable": "Many webhooks disabled",
  "bulk.webhook.reset": "Many webhooks reset",
};

/** What is done to one kind of bank object, by the action's ending. */
const objectActionWords: ReadonlyArray<readonly [suffix: string, words: string]> = [
  [".reveal", "masked fields revealed"],
  [".masked_filter", "list filtered by masked fields"],
  [".export", "list exported"],
  [".userdata.read", "userdata read to edit"],
  [".userdata.update", "userdata changed"],
];

export function auditActionWords(action: string): string | null {
  if (Object.hasOwn(actionWords, action)) return actionWords[action]!;
  for (const [suffix, words] of objectActionWords) {
    if (!action.endsWith(suffix)) continue;
    const kind = action.slice(0, -suffix.length);
    if (Object.hasOwn(resourceRoutes, kind)) return `${resourceRoutes[kind as ResourceName].singular}: ${words}`;
  }
  return null;
}

/** The audit actions of searches over masked fields: the search box's, and list reads filtered by a masked field. */
export const searchActionPattern = { exact: "search.masked_fields", suffix: ".masked_filter" } as const;

export const isSearchAction = (action: string) => action === searchActionPattern.exact || action.endsWith(searchActionPattern.suffix);
