import { describe, expect, it } from "vitest";
import { recordObservations } from "@/lib/index/store";
import { readTimeline, type VersionEntry } from "@/lib/index/timeline";
import { can, roles } from "@/lib/permissions";
import { maskedValue, maskForRole, seesUnmasked, shownInAnswer } from "@/lib/pii";
import { listFromIndex } from "@/lib/search/index-list";
import { parseIndexListQuery } from "@/lib/search/index-list-input";
import { testDatabaseTargets } from "@/tests/support/databases";
import { proxyHarness, staff, startProxyBank } from "@/tests/support/proxy-harness";

// The rule: a role that may edit userdata sees userdata, wherever it sees the object (the bank's answers through the
// proxy, a reload of what it just wrote, the index's lists, the timeline); every other role sees `[masked]` there.

const editors = roles.filter((role) => can(role, "bank:userdata:write"));
const others = roles.filter((role) => !can(role, "bank:userdata:write"));

describe("who sees a network transfer's userdata", () => {
  it("is every role that may edit it, in every answer, and no other role", () => {
    expect(editors).toEqual(["admin", "operations"]);
    for (const role of roles) {
      const shown = maskForRole("network_transfer", { id: "nt_1", userdata: { ticket: "OPS-1" } }, role);
      expect(shown.userdata, role).toEqual(can(role, "bank:userdata:write") ? { ticket: "OPS-1" } : maskedValue);
      expect(shownInAnswer("network_transfer", role).includes("userdata"), role).toBe(can(role, "bank:userdata:write"));
      expect(seesUnmasked("network_transfer", role, "userdata"), role).toBe(can(role, "bank:userdata:write") || can(role, "pii:reveal"));
    }
  });

  it("keeps the rest of the object masked as for a viewer", () => {
    const shown = maskForRole("network_transfer", { id: "nt_1", bankdata: { internal: "x" }, userdata: { a: 1 } }, "operations");
    expect(shown).toEqual({ id: "nt_1", bankdata: maskedValue, userdata: { a: 1 } });
  });
});

const bank = startProxyBank();

describe.each(testDatabaseTargets)("userdata read back by its writer, on $name", (target) => {
  const { session, callProxy, database } = proxyHarness(bank, target);

  it("reads back through the proxy what operations wrote (a reload), while a viewer and compliance see it masked", async () => {
    session.user = staff("operations");
    const path = `/network_transfer/${bank.seed.networkTransfer}`;
    const written = await callProxy("PATCH", path, { body: { userdata: { ticket: "OPS-4821", note: "called the customer" } } });
    expect(written.status).toBe(200);
    expect(written.json).toMatchObject({ userdata: { ticket: "OPS-4821", note: "called the customer" } });
    for (const role of roles) {
      session.user = staff(role);
      const reload = await callProxy("GET", path);
      expect(reload.status).toBe(200);
      expect(reload.json!.userdata, role).toEqual(editors.includes(role) ? { ticket: "OPS-4821", note: "called the customer" } : maskedValue);
      const list = await callProxy("GET", "/network_transfer?page_size=100");
      const row = (list.json!.data as Array<Record<string, unknown>>).find((item) => item.id === bank.seed.networkTransfer);
      expect(row?.userdata, `${role} list`).toEqual(reload.json!.userdata);
    }
  });

  it("shows the writer userdata in the index's lists and the timeline, each change by key; others see it masked", async () => {
    const db = database.db;
    const id = "nt_userdata_visibility";
    const state = (userdata: Record<string, unknown>, second: number) => ({
      id,
      status: "sent",
      amount: "10.00",
      userdata,
      created_at: "2026-11-20T10:00:00Z",
      updated_at: `2026-11-20T10:00:0${second}Z`,
    });
    await recordObservations(db, "sandbox", [{ resource: "network_transfer", id, state: state({ ticket: "OPS-1" }, 1) }], { source: "backfill" });
    await recordObservations(db, "sandbox", [{ resource: "network_transfer", id, state: state({ ticket: "OPS-2", note: "x" }, 2) }], {
      source: "event",
    });
    const parsed = parseIndexListQuery("network_transfer", { statuses: "sent" });
    if (!parsed.ok) throw new Error(parsed.error);
    for (const role of roles) {
      const page = await listFromIndex(db, "sandbox", "network_transfer", parsed.page, { role });
      const row = page.data.find((item) => item.id === id);
      expect(row?.userdata, `${role} index list`).toEqual(editors.includes(role) ? { ticket: "OPS-2", note: "x" } : maskedValue);

      const timeline = await readTimeline(db, { environment: "sandbox", resource: "network_transfer", objectId: id, role });
      const changed = timeline.entries.find((entry): entry is VersionEntry => entry.kind === "version" && entry.version === 2)!;
      expect(changed.changes, `${role} timeline`).toEqual(
        editors.includes(role)
          ? [
              { path: "userdata.note", kind: "added", after: "x" },
              { path: "userdata.ticket", kind: "changed", before: "OPS-1", after: "OPS-2" },
            ]
          : [{ path: "userdata", kind: "changed", before: maskedValue, after: maskedValue }],
      );
    }
    expect(others).toEqual(["compliance", "viewer"]);
  });
});
