import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff } from "@/lib/auth/staff-users";
import { resources } from "@/lib/resources";
import { formOf, requireRole } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { viewActions, type ViewActionState } from "./actions";
import { layoutOf, movedColumn, orderedKeys, withColumnWidth, withDefaultVisibility } from "./layout";
import { findView } from "./store";

// A saved view keeps its list's columns as arranged (shown, order, widths) and its sort, personal or shared, and gives
// them back exactly; what it is given is checked column by column.

const idle: ViewActionState = { error: null, done: null };
const columns = resources.ach.columns;

describe("a column layout", () => {
  it("reads the visibility alone as kept before order and widths existed, and drops what names no column", () => {
    expect(layoutOf(columns, { status: false })).toEqual({ visibility: { status: false }, order: [], widths: {} });
    expect(
      layoutOf(columns, {
        visibility: { status: false, gone: true },
        order: ["amount", "gone", "amount", "status"],
        widths: { amount: 140, status: 2 },
      }),
    ).toEqual({
      visibility: { status: false },
      order: ["amount", "status"],
      widths: { amount: 140 },
    });
    expect(layoutOf(columns, "not json")).toEqual({ visibility: {}, order: [], widths: {} });
  });

  it("moves a column one place at a time, never before the id, and shows the definition's hidden columns hidden", () => {
    const layout = { visibility: {}, order: [], widths: {} };
    const moved = movedColumn(columns, layout, "amount", -1);
    expect(orderedKeys(columns, moved.order).slice(0, 3)).toEqual(["id", "amount", "status"]);
    expect(movedColumn(columns, moved, "amount", -1)).toBe(moved);
    expect(withDefaultVisibility(columns, layout).visibility).toMatchObject({ status: true, trace_number: false });
  });
});

describe("a column's width", () => {
  const layout = { visibility: { status: false }, order: ["amount"], widths: { amount: 140, status: 96 } };

  it("is set, replaced, and given back to its content, leaving the other columns as they were", () => {
    expect(withColumnWidth(layout, "created_at", 200)).toEqual({ ...layout, widths: { amount: 140, status: 96, created_at: 200 } });
    expect(withColumnWidth(layout, "amount", 180).widths).toEqual({ amount: 180, status: 96 });
    expect(withColumnWidth(layout, "amount", undefined)).toEqual({ ...layout, widths: { status: 96 } });
    expect(withColumnWidth(layout, "gone", undefined)).toEqual(layout);
  });
});

describe.each(testDatabaseTargets)("a saved view's columns and sort on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let actor: StaffUser;
  const actions = viewActions({
    requireUser: requireRole(() => actor),
    db: async () => database.db,
    audited: (entry, perform, options) => audited(database.db, entry, perform, options),
    newRequestId: () => `req_${randomUUID()}`,
    changed: () => undefined,
  });
  const staff = (role: StaffUser["role"]) => createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
  const save = (fields: Record<string, string>) =>
    actions.saveView(
      idle,
      formOf({
        resource: "ach",
        name: `Arranged ${randomUUID().slice(0, 8)}`,
        query: JSON.stringify({ statuses: "returned,sent", sort: "-amount" }),
        columns: JSON.stringify({ trace_number: true, service: false }),
        layout: JSON.stringify({ order: ["amount", "trace_number", "status"], widths: { amount: 144, counterparty_id: 260 } }),
        ...fields,
      }),
    );
  const idFrom = (state: ViewActionState) => new URLSearchParams(state.href!.split("?")[1]).get("view")!;

  it("gives back its order, widths, visibility and sort exactly, to its owner and, shared, to another", async () => {
    actor = await staff("admin");
    const saved = await save({ shared: "on" });
    expect(saved.error).toBeNull();
    expect(saved.href).toMatch(/^\/ach\?sort=-amount&statuses=returned%2Csent&view=view_/);
    const other = await staff("viewer");
    for (const reader of [actor, other]) {
      const view = await findView(database.db, reader.id, idFrom(saved));
      expect(view).toMatchObject({
        query: { statuses: "returned,sent", sort: "-amount" },
        columns: { trace_number: true, service: false },
        layout: { order: ["amount", "trace_number", "status"], widths: { amount: 144, counterparty_id: 260 } },
      });
      expect(layoutOf(columns, { ...view!.layout, visibility: view!.columns })).toEqual({
        visibility: { trace_number: true, service: false },
        order: ["amount", "trace_number", "status"],
        widths: { amount: 144, counterparty_id: 260 },
      });
    }
  });

  it("a view saved without a layout keeps the list's own order and widths", async () => {
    actor = await staff("viewer");
    const saved = await actions.saveView(
      idle,
      formOf({ resource: "ach", name: "Plain", query: JSON.stringify({ status: "sent" }), columns: JSON.stringify({}) }),
    );
    expect((await findView(database.db, actor.id, idFrom(saved)))?.layout).toEqual({});
  });

  it.each([
    [{ layout: JSON.stringify({ order: ["amount", "colour"] }) }, "layout: order: colour is not a column of this list"],
    [{ layout: JSON.stringify({ order: ["amount", "amount"] }) }, "layout: order names a column twice"],
    [{ layout: JSON.stringify({ widths: { amount: 5000 } }) }, "layout: widths: amount must be a whole number of pixels from 48 to 960"],
    [{ layout: JSON.stringify({ pinned: ["id"] }) }, "layout: pinned is not part of a layout (order, widths)"],
    [{ layout: "[1]" }, "layout: expected a JSON object"],
    [{ query: JSON.stringify({ sort: "-colour" }) }, 'query: sort: cannot sort this list by "colour"'],
  ])("refuses %j naming the problem, and saves nothing", async (fields, message) => {
    actor = await staff("viewer");
    const answer = await save(fields);
    expect(answer.error).toContain(message);
    expect(answer.href).toBeUndefined();
  });
});
