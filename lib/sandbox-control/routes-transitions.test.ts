import { describe, expect, it } from "vitest";
import { maskForViewer } from "@/lib/pii";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxRoutesHarness, staff } from "@/tests/support/sandbox-routes";

// Moving objects, the clock and failures on demand through the console's sandbox routes: each change audited.

describe.each(testDatabaseTargets)("the console's sandbox routes: transitions, clock and faults on $name", (target) => {
  const { session, call, bank, recordsOf, newAch } = sandboxRoutesHarness(target);

  describe("transitions", () => {
    it("moves an ACH transfer to returned R01 for operations, masked as a GET through the proxy masks it, audited with before and after", async () => {
      session.user = staff("operations");
      const id = await newAch();
      const answer = await call("POST", `/ach/${id}/transition`, { to: "returned", error: "R01" });
      expect(answer.status).toBe(200);
      const atBank = (await bank("GET", `/ach/${id}`)).body;
      expect(atBank).toMatchObject({ status: "returned", error: "R01 Insufficient Funds" });
      expect(answer.json).toEqual(maskForViewer("ach", { ...atBank }));
      expect(await recordsOf(answer)).toEqual([
        expect.objectContaining({
          action: "ach.transition",
          targetId: id,
          environment: "sandbox",
          actorEmail: "operations@demo.bank",
          outcome: "succeeded",
          before: expect.objectContaining({ id, status: "pending" }),
          after: atBank,
        }),
      ]);
    });

    it("answers an invalid transition with a 409 invalid_transition carrying the valid ones, recorded as failed", async () => {
      const id = await newAch();
      expect((await call("POST", `/ach/${id}/transition`, { to: "processing" })).status).toBe(200);
      const refused = await call("POST", `/ach/${id}/transition`, { to: "canceled" });
      expect(refused).toMatchObject({
        status: 409,
        json: {
          error: { code: "invalid_transition", message: expect.stringContaining("cannot move to canceled"), valid: ["sent", "returned", "error"] },
        },
      });
      expect(await recordsOf(refused)).toEqual([expect.objectContaining({ action: "ach.transition", outcome: "failed" })]);
      expect((await bank("GET", `/ach/${id}`)).body.status).toBe("processing");
    });

    it("lists an instant payment's valid transitions for a viewer, and its 409 carries both lists", async () => {
      session.user = staff("viewer");
      const created = await bank("POST", "/sandbox/fednow", { payment_type: "debit" });
      const id = created.body.id as string;
      const listed = await call("GET", `/fednow/${id}/transitions`);
      expect(listed).toMatchObject({
        status: 200,
        json: { status: "pending", valid: ["processing", "sent", "error"], valid_external_status: expect.arrayContaining(["rejected"]) },
      });
      session.user = staff("operations");
      const refused = await call("POST", `/fednow/${id}/transition`, { to: "done" });
      expect(refused.json.error).toMatchObject({
        code: "invalid_transition",
        valid: ["processing", "sent", "error"],
        valid_external_status: expect.any(Array),
      });
    });

    it("answers 404 with the bank's message for an object that does not exist", async () => {
      expect(await call("GET", "/ach/ach_missing/transitions")).toMatchObject({
        status: 404,
        json: { error: { message: "No ach with id ach_missing" } },
      });
      expect((await call("POST", "/network_transfer/nt_missing/transition", { to: "sent" })).status).toBe(404);
    });

    it("refuses to move one of the console's own subscriptions, which feed its index (403), and moves any other webhook", async () => {
      const own = await bank("POST", "/webhook", {
        url: "http://127.0.0.1:9/api/bank-events/sandbox",
        event: "card.update",
        basic_user: "console-sandbox",
        basic_secret: "receiver-secret-0123456789",
      });
      expect(own.status).toBe(201);
      expect(await call("POST", `/webhook/${own.body.id}/transition`, { to: "disabled" })).toMatchObject({
        status: 403,
        json: { error: { code: "console_webhook" } },
      });
      const theirs = await bank("POST", "/webhook", { url: "http://127.0.0.1:9/theirs", event: "card.update" });
      const moved = await call("POST", `/webhook/${theirs.body.id}/transition`, { to: "error" });
      expect(moved).toMatchObject({ status: 200, json: { status: "error" } });
      await bank("DELETE", `/webhook/${own.body.id}`);
      await bank("DELETE", `/webhook/${theirs.body.id}`);
    });
  });

  describe("clock and faults", () => {
    it("reads the clock, advances it for operations (audited), and refuses more than P366D with the bank's message", async () => {
      const { now } = (await call("GET", "/clock")).json as { now: string };
      session.user = staff("operations");
      const advanced = await call("POST", "/clock/advance", { by: "PT1H" });
      expect(advanced.status).toBe(200);
      expect(Date.parse(advanced.json.now as string) - Date.parse(now)).toBeGreaterThanOrEqual(3_600_000);
      expect(await recordsOf(advanced)).toEqual([
        expect.objectContaining({
          action: "sandbox.clock.advance",
          outcome: "succeeded",
          before: { now: expect.any(String) },
          after: { now: advanced.json.now, by: "PT1H" },
        }),
      ]);
      expect((await call("POST", "/clock/advance", { by: "P400D" })).json.error?.message).toContain("at most P366D");
    });

    it("adds, lists, removes one and clears faults, each change audited", async () => {
      session.user = staff("operations");
      const added = await call("POST", "/faults", { match: "GET /card", status: 503, retry_after: 2, times: 5 });
      expect(added).toMatchObject({ status: 201, json: { id: expect.stringMatching(/^flt_/), match: "GET /card", status: 503 } });
      const id = added.json.id as string;
      expect((await recordsOf(added))[0]).toMatchObject({ action: "sandbox.fault.add", outcome: "succeeded", after: added.json });
      expect((await call("GET", "/faults")).json.data).toEqual([added.json]);
      const removed = await call("DELETE", `/faults/${id}`);
      expect(removed.status).toBe(204);
      expect((await recordsOf(removed))[0]).toMatchObject({ action: "sandbox.fault.remove", targetId: id, outcome: "succeeded" });
      expect(await call("DELETE", `/faults/${id}`)).toMatchObject({ status: 404 });
      await call("POST", "/faults", { webhooks: "drop" });
      const cleared = await call("DELETE", "/faults");
      expect(cleared.status).toBe(204);
      expect((await recordsOf(cleared))[0]).toMatchObject({
        action: "sandbox.fault.clear",
        before: { data: [expect.objectContaining({ webhooks: "drop" })] },
      });
      expect((await call("GET", "/faults")).json).toEqual({ data: [] });
    });
  });
});
