import { describe, expect, it } from "vitest";
import { achReturnCodes, fednowRejectReasons } from "@/lib/contract/sandbox-reason-codes";
import { achRules, fednowRules, networkTransferRules } from "@/sandbox/lifecycle/magic";
import { testDatabaseTargets } from "@/tests/support/databases";
import { type Body, cases, debit, refusals, transitionBank } from "./transition-cases";

describe.each(testDatabaseTargets)("POST /sandbox/{resource}/{id}/transition on $name", (target) => {
  const { bank, transition, objectAt } = transitionBank(target);

  describe.each(Object.keys(cases) as Array<keyof typeof cases>)("%s", (resource) => {
    it.each(Object.entries(cases[resource]))("%s: 200 with the object as GET answers it, each step's update fired once", async (_name, test) => {
      const id = await objectAt(resource, test.fields, test.path);
      const before = (await bank.eventsAbout(id)).length;
      const moved = await transition(resource, id, test.ask);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject(test.expected);
      expect(moved.body).toEqual((await bank.request(`/${resource}/${id}`)).body);
      const events = await bank.eventsAbout(id);
      expect(events.filter((name) => name === `${resource}.update`)).toHaveLength(before - 1 + test.updates);
      expect(events).toHaveLength(before + test.updates);
      const updatedAt = Date.parse((moved.body as Body).updated_at);
      expect(Math.abs(updatedAt - bank.sandbox.context.now().getTime())).toBeLessThan(5_000);
      if (test.expected.balanced_at === undefined && resource === "network_transfer" && test.path) {
        expect((moved.body as Body).balanced_at).toBe((moved.body as Body).updated_at);
      }
    });

    it.each(Object.entries(refusals[resource]))("%s: 409 listing the valid transitions, nothing changed or fired", async (_name, test) => {
      const id = await objectAt(resource, test.fields, test.path);
      const before = (await bank.request(`/${resource}/${id}`)).body;
      const eventsBefore = await bank.eventsAbout(id);
      const refused = await transition(resource, id, test.ask);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: expect.stringContaining(`cannot move to`), ...test.valid });
      expect((await bank.request(`/${resource}/${id}`)).body).toEqual(before);
      expect(await bank.eventsAbout(id)).toEqual(eventsBefore);
    });

    it("answers 404 for an object that does not exist", async () => {
      const missing = await transition(resource, `${resource}_missing`, { to: "error" });
      expect(missing).toMatchObject({ status: 404, body: { error: `No ${resource} with id ${resource}_missing` } });
    });

    it("answers 400 naming the valid values for an unknown to, and naming an unknown field", async () => {
      const id = await objectAt(resource);
      const unknown = await transition(resource, id, { to: "lost" });
      expect(unknown.status).toBe(400);
      expect((unknown.body as { error: string }).error).toMatch(/^to must be one of pending, /);
      expect((await transition(resource, id, { to: "error", colour: "red" })).body).toEqual({ error: "unknown field: colour" });
      expect((await transition(resource, id, { to: "canceled", error: "why" })).status).toBe(400);
    });
  });

  it("refuses a return code it does not know, naming the field and the codes", async () => {
    const id = await objectAt("ach");
    const refused = await transition("ach", id, { to: "returned", error: "R99" });
    expect(refused).toEqual(
      expect.objectContaining({ status: 400, body: { error: `error must be an ACH return code: one of ${Object.keys(achReturnCodes).join(", ")}` } }),
    );
  });

  it("refuses an instant payment's reject reason it does not know, and one given without external_status rejected", async () => {
    const id = await objectAt("fednow", debit);
    const unknown = await transition("fednow", id, { external_status: "rejected", external_reject_reason: "ZZ99" });
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: `external_reject_reason must be one of ${Object.keys(fednowRejectReasons).join(", ")}` },
    });
    const misplaced = await transition("fednow", id, { external_status: "done", external_reject_reason: "AC04" });
    expect(misplaced).toMatchObject({ status: 400, body: { error: "external_reject_reason applies only to external_status rejected" } });
    const conflicting = await transition("fednow", id, { to: "done", external_status: "done" });
    expect(conflicting.status).toBe(400);
    expect((conflicting.body as { error: string }).error).toContain("to must be sent");
  });

  it("keeps the return codes of the lifecycle's magic amounts and reject reasons, so both say the same", () => {
    for (const rule of achRules) {
      if (rule.outcome.status !== "returned") continue;
      const [code, ...title] = rule.outcome.error.split(" ");
      expect(achReturnCodes[code!]).toBe(title.join(" "));
    }
    for (const rule of fednowRules) {
      const reason = rule.outcome.status === "settled" ? rule.outcome.externalRejectReason : null;
      if (reason) expect(fednowRejectReasons[reason.code]).toBe(reason.message);
    }
    expect(networkTransferRules.some((rule) => rule.outcome.status === "error")).toBe(true);
  });

  it("answers 401 without credentials and changes nothing", async () => {
    const id = await objectAt("ach");
    const anonymous = await bank.request(`/sandbox/ach/${id}/transition`, { method: "POST", json: { to: "sent" }, headers: { authorization: "" } });
    expect(anonymous.status).toBe(401);
    expect((await bank.request(`/ach/${id}`)).body).toMatchObject({ status: "pending" });
  });

  it("answers 404 naming the resources for a resource that has no transitions", async () => {
    const refused = await bank.request("/sandbox/card/card_x/transition", { method: "POST", json: { to: "locked" } });
    expect(refused.status).toBe(404);
    expect((refused.body as { error: string }).error).toContain(
      "POST /sandbox/{resource}/{id}/transition moves ach, network_transfer, fednow, webhook",
    );
  });
});
