import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries } from "@/sandbox/db/webhook-schema";
import { testDatabaseTargets } from "@/tests/support/databases";
import { eventually } from "@/tests/support/webhook-receiver";
import { type Body, transitionBank } from "./transition-cases";

describe.each(testDatabaseTargets)("moving a webhook: POST /sandbox/webhook/{id}/transition on $name", (target) => {
  const { bank, transition } = transitionBank(target);

  describe("webhook", () => {
    /** A webhook with a delivery still pending: its receiver failed once, and the retry is a minute away. */
    async function webhookWithPendingDelivery() {
      const path = `/failing-${Math.random().toString(36).slice(2)}`;
      bank.receiver.respondWith((at) => (at === path ? 500 : 200));
      const hook = await bank.request("/webhook", { method: "POST", json: { url: bank.receiver.url(path), event: "counterparty.create" } });
      expect(hook.status).toBe(201);
      const id = (hook.body as Body).id;
      expect((await bank.request("/sandbox/counterparty", { method: "POST", json: {} })).status).toBe(201);
      await eventually(() => bank.receiver.at(path).length === 1);
      const states = async () =>
        (
          await bank.sandbox.context.db
            .select({ state: webhookDeliveries.state, attempts: webhookDeliveries.attempts })
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.webhookId, id))
        ).map((row) => `${row.state} after ${row.attempts}`);
      // The failed attempt recorded: the delivery waits for its retry.
      await eventually(async () => (await states()).join() === "pending after 1");
      return { id, path, states };
    }

    it.each([
      [
        "error, with the threshold's reason by default",
        { to: "error" },
        { status: "error", error: "10 bad responses within 300 s; last: HTTP 500 (POST /sandbox/webhook/{id}/transition)" },
      ],
      ["error, with the reason given", { to: "error", error: "receiver is down" }, { status: "error", error: "receiver is down" }],
      ["disabled", { to: "disabled" }, { status: "disabled", error: null }],
    ])("enabled → %s: webhook.update fired once and its pending deliveries paused, as the error threshold does", async (_name, ask, expected) => {
      const { id, path, states } = await webhookWithPendingDelivery();
      const moved = await transition("webhook", id, ask);
      expect(moved).toMatchObject({ status: 200, body: expected });
      expect(moved.body).toEqual((await bank.request(`/webhook/${id}`)).body);
      expect(await bank.eventsAbout(id)).toEqual(["webhook.create", "webhook.update"]);
      expect(await states()).toEqual(["paused after 1"]);
      // Reset as after the threshold: the paused delivery is sent at once.
      bank.receiver.respondWith(() => 200);
      expect((await bank.request(`/webhook/${id}`, { method: "PATCH", json: { status: "enabled" } })).status).toBe(200);
      await eventually(() => bank.receiver.at(path).length === 2);
      await eventually(async () => (await states()).join() === "delivered after 2");
    });

    it("error → disabled clears the reason and fires webhook.update once; disabled → error is a 409 listing none", async () => {
      const { id } = await webhookWithPendingDelivery();
      expect((await transition("webhook", id, { to: "error" })).status).toBe(200);
      const disabled = await transition("webhook", id, { to: "disabled" });
      expect(disabled).toMatchObject({ status: 200, body: { status: "disabled", error: null } });
      expect(await bank.eventsAbout(id)).toEqual(["webhook.create", "webhook.update", "webhook.update"]);
      const refused = await transition("webhook", id, { to: "error" });
      expect(refused).toEqual(
        expect.objectContaining({ status: 409, body: { error: `webhook ${id} is disabled: it cannot move to error; valid: none`, valid: [] } }),
      );
    });

    it("refuses to as enabled (a PATCH resets a webhook) and an unknown webhook", async () => {
      const hook = await bank.request("/webhook", { method: "POST", json: { url: bank.receiver.url("/quiet"), event: "card.create" } });
      const enabled = await transition("webhook", (hook.body as Body).id, { to: "enabled" });
      expect(enabled).toMatchObject({
        status: 400,
        body: { error: "to must be one of error, disabled (PATCH /webhook/{id} with status enabled resets a webhook)" },
      });
      expect((await transition("webhook", "webhook_missing", { to: "error" })).status).toBe(404);
    });
  });
});
