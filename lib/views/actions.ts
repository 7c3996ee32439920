import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { ConsoleDb } from "@/lib/db/console-db";
import { can, type Permission } from "@/lib/permissions";
import { listHref } from "@/lib/resources";
import { savedViewInput } from "./input";
import { createView, removeView, SavedViewError, type SavedView } from "./store";

export interface ViewActionState {
  error: string | null;
  done: string | null;
  /** Where the saved view opens (its list with its filters and `view=`), after a save. */
  href?: string;
}

/** What the saved-view actions need from the console; lib/actions/views.ts wires the real ones. */
export interface ViewActionDependencies {
  requireUser(permission: Permission): Promise<StaffUser>;
  db(): Promise<ConsoleDb>;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  newRequestId(): string;
  /** Called after a change, so the sidebar and the list show it. */
  changed(): void;
}

/** The list URL a view opens: its filters, and `view=` so the list applies its columns and names it. */
export const viewHref = (view: Pick<SavedView, "id" | "resource" | "query">) =>
  listHref(view.resource, { ...Object.fromEntries(Object.entries(view.query).sort(([a], [b]) => a.localeCompare(b))), view: view.id });

const firstIssue = (issues: Array<{ message: string }>) => issues[0]?.message ?? "invalid input";

/**
 * Saving and removing a list's view (docs/search.md): any staff member who may read the bank, each change audited;
 * sharing one needs `view:share`, and one person keeps at most `maxViewsPerPerson`. Refusals (a taken name, a filter
 * the list does not have, another's view, sharing without the permission, past the cap) are told by name and change
 * nothing.
 */
export function viewActions(dependencies: ViewActionDependencies) {
  async function change<T>(
    actor: StaffUser,
    action: string,
    targetId: string | null,
    perform: (db: ConsoleDb) => Promise<T>,
    after: (result: T) => unknown,
  ): Promise<{ result: T } | { error: string }> {
    const db = await dependencies.db();
    const entry = { actor, environment: null, action, targetId, requestId: dependencies.newRequestId() };
    try {
      return { result: await dependencies.audited(entry, () => perform(db), { after }) };
    } catch (error) {
      if (error instanceof SavedViewError) return { error: error.message };
      throw error;
    }
  }

  return {
    async saveView(_previous: ViewActionState, form: FormData): Promise<ViewActionState> {
      const actor = await dependencies.requireUser("bank:read");
      const input = savedViewInput.safeParse(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")));
      if (!input.success) return { error: firstIssue(input.error.issues), done: null };
      // Shared views show in every staff member's sidebar: only roles trusted to speak to all staff may add to it.
      if (input.data.shared && !can(actor.role, "view:share"))
        return { error: "shared: your role may not share views with every staff member; save it as a personal view", done: null };
      const outcome = await change(
        actor,
        "view.save",
        null,
        (db) => createView(db, actor, input.data),
        (view) => view,
      );
      if ("error" in outcome) return { error: outcome.error, done: null };
      dependencies.changed();
      const view = outcome.result;
      return { error: null, done: `Saved the view "${view.name}"${view.shared ? ", shared with every staff member" : ""}`, href: viewHref(view) };
    },

    async removeView(_previous: ViewActionState, form: FormData): Promise<ViewActionState> {
      const actor = await dependencies.requireUser("bank:read");
      const id = form.get("id");
      if (typeof id !== "string" || !/^view_[A-Za-z0-9_-]{1,40}$/.test(id)) return { error: "id: expected a saved view id", done: null };
      const outcome = await change(
        actor,
        "view.remove",
        id,
        (db) => removeView(db, actor, id, can(actor.role, "staff:manage")),
        () => null,
      );
      if ("error" in outcome) return { error: outcome.error, done: null };
      dependencies.changed();
      return { error: null, done: `Removed the view "${outcome.result.name}"` };
    },
  };
}
