import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff } from "@/lib/auth/staff-users";
import { auditRecordsOf, expectedAuditRecord, formOf, Refused, requireRole } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { viewActions, type ViewActionState } from "./actions";
import { savedViews } from "@/lib/db/console-schema";
import { sidebarViews, sidebarViewsPerList } from "./sidebar";
import { findView, listViews, maxViewsPerPerson } from "./store";

// Saved views against a real console database (both targets); the session is given (`requireRole` refuses a role
// without the permission, as requireUser does).

const idle: ViewActionState = { error: null, done: null };

describe.each(testDatabaseTargets)("saved views on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let actor: StaffUser;
  let requestId: string;
  const actions = viewActions({
    requireUser: requireRole(() => actor),
    db: async () => database.db,
    audited: (entry, perform, options) => audited(database.db, entry, perform, options),
    newRequestId: () => requestId,
    changed: () => undefined,
  });
  const as = (user: StaffUser) => {
    actor = user;
    requestId = `req_${randomUUID()}`;
  };
  const staff = (role: StaffUser["role"]) => createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
  const returnedAch = (fields: Record<string, string> = {}) =>
    formOf({
      resource: "ach",
      name: "Returned ACH",
      query: JSON.stringify({ status: "returned", amount_min: "1000", page_size: "50" }),
      columns: JSON.stringify({ counterparty_id: false, trace_number: true }),
      ...fields,
    });
  const idFrom = (state: ViewActionState) => new URLSearchParams(state.href!.split("?")[1]).get("view")!;

  it("keeps a view's filters and columns under its name, opens it at its list with view=, and audits the save", async () => {
    as(await staff("viewer"));
    const saved = await actions.saveView(idle, returnedAch());
    expect(saved).toMatchObject({ error: null, done: 'Saved the view "Returned ACH"' });
    expect(saved.href).toMatch(/^\/ach\?amount_min=1000&page_size=50&status=returned&view=view_[\w-]+$/);
    const view = await findView(database.db, actor.id, idFrom(saved));
    expect(view).toMatchObject({
      resource: "ach",
      name: "Returned ACH",
      shared: false,
      ownerId: actor.id,
      columns: { counterparty_id: false, trace_number: true },
    });
    expect(await auditRecordsOf(database, requestId)).toEqual([
      expectedAuditRecord(
        { actor, environment: null, requestId },
        {
          action: "view.save",
          targetId: null,
          before: null,
          after: expect.objectContaining({ id: view!.id, name: "Returned ACH" }),
          outcome: "succeeded",
          error: null,
        },
      ),
    ]);
  });

  it("shows a personal view only to its owner and a shared one to every staff member", async () => {
    const owner = await staff("operations");
    const other = await staff("compliance");
    as(owner);
    const personal = idFrom(await actions.saveView(idle, returnedAch({ name: "Mine" })));
    const shared = idFrom(await actions.saveView(idle, returnedAch({ name: "Everyone's", shared: "on" })));
    const namesFor = async (user: StaffUser) => (await listViews(database.db, user.id, "ach")).map((view) => view.id);
    expect(await namesFor(owner)).toEqual(expect.arrayContaining([personal, shared]));
    expect(await namesFor(other)).toContain(shared);
    expect(await namesFor(other)).not.toContain(personal);
    expect(await findView(database.db, other.id, personal)).toBeNull();
  });

  it("refuses a second view of the same name on the same list (any case), but not on another list or for another owner", async () => {
    const owner = await staff("viewer");
    as(owner);
    expect((await actions.saveView(idle, returnedAch({ name: "Dupes" }))).error).toBeNull();
    expect(await actions.saveView(idle, returnedAch({ name: " dupes " }))).toEqual({
      error: 'name: you already have a view named "dupes" on this list',
      done: null,
    });
    expect((await actions.saveView(idle, returnedAch({ name: "Dupes", resource: "fednow", columns: "{}" }))).error).toBeNull();
    as(await staff("viewer"));
    expect((await actions.saveView(idle, returnedAch({ name: "Dupes" }))).error).toBeNull();
  });

  it.each([
    [{ name: "  " }, "name: give the view a name"],
    [{ name: "x".repeat(61) }, "name: at most 60 characters"],
    [{ resource: "accounts" }, "resource: not a list of the console"],
    [{ query: "{not json" }, "query: expected a JSON object"],
    [{ query: JSON.stringify({ page_cursor: "abc" }) }, "query: page_cursor is not a filter of this list"],
    [{ query: JSON.stringify({ drop_table: "x" }) }, "query: drop_table is not a filter of this list"],
    [{ query: JSON.stringify({ status: 5 }) }, "query: status must be text of at most 200 characters"],
    [{ columns: JSON.stringify({ secret: true }) }, "columns: secret is not a column of this list"],
    [{ columns: "[]" }, "columns: expected a JSON object"],
    [{ shared: "yes" }, "shared"],
    [{ name: "call IT\u0000" }, "name: must not contain NUL (U+0000) or unpaired surrogate characters"],
    [{ query: JSON.stringify({ status: "returned\u0000" }) }, "query: status must not contain NUL (U+0000) or unpaired surrogate characters"],
  ])("refuses %j by naming what is wrong, and saves nothing", async (fields, message) => {
    const owner = await staff("viewer");
    as(owner);
    const answer = await actions.saveView(idle, returnedAch(fields));
    expect(answer.error).toContain(message);
    expect((await listViews(database.db, owner.id)).filter((view) => view.ownerId === owner.id)).toEqual([]);
    expect(await auditRecordsOf(database, requestId)).toEqual([]);
  });

  it("refuses a viewer's shared view (sharing needs view:share), saving and auditing nothing, and lets them save it as their own", async () => {
    const viewer = await staff("viewer");
    as(viewer);
    expect(await actions.saveView(idle, returnedAch({ name: "call IT 555-0100", shared: "on" }))).toEqual({
      error: "shared: your role may not share views with every staff member; save it as a personal view",
      done: null,
    });
    expect(await listViews(database.db, viewer.id)).not.toContainEqual(expect.objectContaining({ ownerId: viewer.id }));
    expect(await auditRecordsOf(database, requestId)).toEqual([]);
    expect((await actions.saveView(idle, returnedAch({ name: "call IT 555-0100" }))).error).toBeNull();
    for (const role of ["operations", "compliance", "admin"] as const) {
      as(await staff(role));
      expect(await actions.saveView(idle, returnedAch({ name: "Shared", shared: "on" }))).toMatchObject({
        error: null,
        done: expect.stringContaining("shared"),
      });
    }
  });

  it(`refuses a person's view past ${maxViewsPerPerson} (over all lists), audited as failed, until they remove one`, async () => {
    const owner = await staff("operations");
    await database.db.insert(savedViews).values(
      Array.from({ length: maxViewsPerPerson }, (_, index) => ({
        id: `view_cap${index}_${randomUUID().slice(0, 8)}`,
        resource: index % 2 ? "ach" : "fednow",
        name: `View ${index}`,
        ownerId: owner.id,
        ownerEmail: owner.email,
        shared: true,
        query: {},
        columns: {},
      })),
    );
    as(owner);
    expect(await actions.saveView(idle, returnedAch({ name: "One too many" }))).toEqual({
      error: `You already keep ${maxViewsPerPerson} saved views, the most one person may; remove one to save another`,
      done: null,
    });
    expect(await auditRecordsOf(database, requestId)).toEqual([expect.objectContaining({ action: "view.save", outcome: "failed" })]);
    const mine = (await listViews(database.db, owner.id)).filter((view) => view.ownerId === owner.id);
    expect(mine).toHaveLength(maxViewsPerPerson);
    as(owner);
    expect((await actions.removeView(idle, formOf({ id: mine[0]!.id }))).error).toBeNull();
    as(owner);
    expect((await actions.saveView(idle, returnedAch({ name: "One too many" }))).error).toBeNull();
  });

  it(`shows at most ${sidebarViewsPerList} views of a list in the sidebar, the person's own first, then "more" to all of them`, async () => {
    const sharer = await staff("compliance");
    as(sharer);
    const counterparties = (name: string, shared: string) => formOf({ resource: "counterparty", name, shared, query: "{}", columns: "{}" });
    for (let index = 0; index < sidebarViewsPerList + 3; index++)
      expect((await actions.saveView(idle, counterparties(`A shared ${String(index).padStart(2, "0")}`, "on"))).error).toBeNull();
    const reader = await staff("viewer");
    as(reader);
    expect((await actions.saveView(idle, counterparties("Zz mine", "off"))).error).toBeNull();
    const seen = (await sidebarViews(database.db, reader.id))["/counterparties"]!;
    expect(seen.views).toHaveLength(sidebarViewsPerList);
    expect(seen.views.map((view) => view.name)).toEqual([
      "Zz mine",
      ...Array.from({ length: sidebarViewsPerList - 1 }, (_, index) => `A shared 0${index}`),
    ]);
    expect(seen.more).toEqual({ count: 4, href: "/views?list=counterparty" });
    expect((await listViews(database.db, reader.id, "counterparty")).length).toBe(sidebarViewsPerList + 4);
    expect((await sidebarViews(database.db, sharer.id))["/counterparties"]!.more).toEqual({ count: 3, href: "/views?list=counterparty" });
  });

  it("lets only the owner remove a view, or an admin a shared one; the refusal is audited as failed", async () => {
    const owner = await staff("operations");
    as(owner);
    const id = idFrom(await actions.saveView(idle, returnedAch({ name: "Shared", shared: "on" })));
    as(await staff("viewer"));
    expect(await actions.removeView(idle, formOf({ id }))).toEqual({ error: `Only ${owner.email}, who saved "Shared", may remove it`, done: null });
    expect(await auditRecordsOf(database, requestId)).toEqual([expect.objectContaining({ action: "view.remove", targetId: id, outcome: "failed" })]);
    expect(await findView(database.db, owner.id, id)).not.toBeNull();
    as(await staff("admin"));
    expect(await actions.removeView(idle, formOf({ id }))).toEqual({ error: null, done: 'Removed the view "Shared"' });
    expect(await findView(database.db, owner.id, id)).toBeNull();
    expect(await actions.removeView(idle, formOf({ id }))).toEqual({ error: `No saved view ${id}`, done: null });
    expect(await actions.removeView(idle, formOf({ id: "../etc" }))).toEqual({ error: "id: expected a saved view id", done: null });
  });

  it("needs a signed-in role that may read the bank", async () => {
    const actions = viewActions({
      requireUser: async () => {
        throw new Refused("not signed in");
      },
      db: async () => database.db,
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      newRequestId: () => requestId,
      changed: () => undefined,
    });
    await expect(actions.saveView(idle, returnedAch())).rejects.toThrow(Refused);
  });
});
