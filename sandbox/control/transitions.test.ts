import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/tests/support/databases";
import { type Body, debit, transitionBank } from "./transition-cases";

describe.each(testDatabaseTargets)("where an object can move: GET /sandbox/{resource}/{id}/transitions on $name", (target) => {
  const { bank, transition, objectAt } = transitionBank(target);

  describe("GET /sandbox/{resource}/{id}/transitions", () => {
    const transitions = (resource: string, id: string) => bank.request(`/sandbox/${resource}/${id}/transitions`);

    it("lists where an ACH transfer stands and the valid targets, as a 409 would, along its road", async () => {
      const id = await objectAt("ach");
      expect(await transitions("ach", id)).toMatchObject({
        status: 200,
        body: { status: "pending", valid: ["processing", "sent", "returned", "canceled", "error"] },
      });
      expect((await transition("ach", id, { to: "processing" })).status).toBe(200);
      expect((await transitions("ach", id)).body).toEqual({ status: "processing", valid: ["sent", "returned", "error"] });
      expect((await transition("ach", id, { to: "returned", error: "R01" })).status).toBe(200);
      expect((await transitions("ach", id)).body).toEqual({ status: "returned", valid: [] });
    });

    it("lists a network transfer's targets, and a v2 cross-bank sent one's balancing wire", async () => {
      const id = await objectAt("network_transfer", { version: "v2", cross_bank: true });
      expect((await transitions("network_transfer", id)).body).toEqual({ status: "pending", valid: ["canceled", "sent", "error"] });
      expect((await transition("network_transfer", id, { to: "sent" })).status).toBe(200);
      expect((await transitions("network_transfer", id)).body).toEqual({ status: "sent", valid: ["sent"] });
    });

    it("lists an instant payment's targets of to and of external_status, its status as a 409 words it", async () => {
      const id = await objectAt("fednow", debit);
      expect((await transitions("fednow", id)).body).toEqual({
        status: "pending",
        valid: ["processing", "sent", "error"],
        valid_external_status: ["pending", "processing", "done", "rejected", "blocked", "error"],
      });
      expect((await transition("fednow", id, { to: "sent" })).status).toBe(200);
      expect((await transitions("fednow", id)).body).toEqual({
        status: "sent (external_status pending)",
        valid: [],
        valid_external_status: ["processing", "done", "rejected", "blocked", "error"],
      });
    });

    it("lists a webhook's moves, none once disabled", async () => {
      const hook = await bank.request("/webhook", { method: "POST", json: { url: bank.receiver.url("/listed"), event: "card.create" } });
      const id = (hook.body as Body).id;
      expect((await transitions("webhook", id)).body).toEqual({ status: "enabled", valid: ["error", "disabled"] });
      expect((await transition("webhook", id, { to: "error" })).status).toBe(200);
      expect((await transitions("webhook", id)).body).toEqual({ status: "error", valid: ["disabled"] });
      expect((await transition("webhook", id, { to: "disabled" })).status).toBe(200);
      expect((await transitions("webhook", id)).body).toEqual({ status: "disabled", valid: [] });
    });

    it.each(["ach", "network_transfer", "fednow", "webhook"])(
      "answers 404 for a %s that does not exist, and 401 without credentials",
      async (resource) => {
        expect(await transitions(resource, `${resource}_missing`)).toMatchObject({
          status: 404,
          body: { error: `No ${resource} with id ${resource}_missing` },
        });
        const anonymous = await bank.request(`/sandbox/${resource}/${resource}_missing/transitions`, { headers: { authorization: "" } });
        expect(anonymous.status).toBe(401);
      },
    );

    it("is in the OpenAPI document under the sandbox tag, beside the transition", async () => {
      const document = (await bank.request("/openapi.json")).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
      for (const resource of ["ach", "network_transfer", "fednow", "webhook"]) {
        expect(document.paths[`/sandbox/${resource}/{id}/transitions`]?.get?.tags).toEqual(["sandbox"]);
      }
    });
  });
});
