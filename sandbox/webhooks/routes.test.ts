import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampPattern } from "@/lib/contract";
import { defaultSandboxSettings } from "@/sandbox/context";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { rows, tables } from "@/tests/support/sandbox-fixtures";
import { testDatabaseTargets } from "@/tests/support/databases";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

interface WebhookBody {
  id: string;
  url: string;
  event: string;
  status: string;
  basic_user: string | null;
  basic_secret: null;
  error: string | null;
  userdata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}
interface DeliveryBody {
  id: string;
  webhook_id: string;
  event: string;
  op: string;
  object_id: string;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  succeeded: boolean;
  url: string;
  request_body: string | null;
  response_body: string | null;
}
interface Page<T> {
  data: T[];
  page_next?: string;
}

/** Where the console would listen, as far as these sandboxes know (nothing needs to listen there). */
const consolePort = 4399;

describe.each(testDatabaseTargets)("webhook endpoints on $name", (target) => {
  const fixture = sandboxOnDatabase(target, {
    seed: "empty",
    settings: {
      lifecycle: "off",
      webhooks: {
        ...defaultSandboxSettings.webhooks,
        retryBaseMs: 10,
        retryCapMs: 40,
        pollIntervalMs: 5,
        errorThreshold: 3,
        refusedConsole: { host: "127.0.0.1", port: consolePort },
      },
    },
  });
  const { request } = fixture;
  let receiver: Receiver;

  const create = async (fields: Record<string, unknown>) => {
    const response = await request("/webhook", { method: "POST", json: fields });
    expect(response.status).toBe(201);
    return response.body as WebhookBody;
  };
  const get = async (id: string) => (await request(`/webhook/${id}`)).body as WebhookBody;
  const patch = (id: string, json: unknown) => request(`/webhook/${id}`, { method: "PATCH", json });
  /** Changes network transfer `id` over the API, which emits network_transfer.update. */
  const touchTransfer = (id: string) => request(`/network_transfer/${id}`, { method: "PATCH", json: { userdata: { at: Date.now() } } });
  const deliveries = async (id: string, query = "") => (await request(`/webhook/${id}/deliveries${query}`)).body as Page<DeliveryBody>;

  beforeAll(async () => {
    receiver = await startReceiver();
    await fixture.sandbox.context.db.insert(tables.network_transfer).values([1, 2, 3, 4, 5].map((n) => rows.network_transfer(n)));
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  describe("create, read, list", () => {
    it("refuses a url on the console's own address, on create and on change, naming the setting", async () => {
      const disguised = [
        `http://127.0.0.1:${consolePort}/api/bank/ach`,
        `http://localhost:${consolePort}/`,
        `http://[::1]:${consolePort}/`,
        `http://127.0.0.1:${consolePort}/api/bank-events/sandbox/../../bank/ach`,
        `http://127.0.0.1:${consolePort}/api/bank-events/sandbox?to=/api/bank/ach`,
        `http://127.0.0.1:${consolePort}/api/bank-events/staging`,
        `http://[::ffff:127.0.0.1]:${consolePort}/`,
        `http://[0:0:0:0:0:ffff:7f00:1]:${consolePort}/`,
        `http://2130706433:${consolePort}/`,
        `http://0177.0.0.1:${consolePort}/`,
      ];
      for (const url of disguised) {
        const created = await request("/webhook", { method: "POST", json: { url, event: "ach.create" } });
        expect(created.status, url).toBe(400);
        expect((created.body as { error: string }).error).toContain("SANDBOX_WEBHOOK_REFUSE_CONSOLE=off");
      }
      const hook = await create({ url: receiver.url("/elsewhere"), event: "ach.create" });
      expect((await patch(hook.id, { url: `http://localhost:${consolePort}/` })).status).toBe(400);
      expect((await get(hook.id)).url).toBe(receiver.url("/elsewhere"));
      await request(`/webhook/${hook.id}`, { method: "DELETE" });
    });

    it("refuses private, link-local and other non-public addresses no allowed network names, on create and on change", async () => {
      for (const url of ["http://10.0.0.7:8080/", "http://169.254.169.254/latest/meta-data", "http://[::ffff:192.168.1.1]/", "http://[fd00::1]/"]) {
        const created = await request("/webhook", { method: "POST", json: { url, event: "ach.create" } });
        expect(created.status, url).toBe(400);
        expect((created.body as { error: string }).error).toContain("SANDBOX_WEBHOOK_ALLOWED_NETWORKS can allow a network");
      }
      const hook = await create({ url: receiver.url("/private-change"), event: "ach.create" });
      expect((await patch(hook.id, { url: "http://10.0.0.7/" })).status).toBe(400);
      await request(`/webhook/${hook.id}`, { method: "DELETE" });
    });

    it("refuses a url carrying a user or password, on create and on change (basic_user and basic_secret exist for that)", async () => {
      const withCredentials = receiver.url("/creds").replace("http://", "http://user:pass@");
      const created = await request("/webhook", { method: "POST", json: { url: withCredentials, event: "ach.create" } });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ error: "url may not carry a user name or password; give them as basic_user and basic_secret" });
      const hook = await create({ url: receiver.url("/creds"), event: "ach.create" });
      expect((await patch(hook.id, { url: withCredentials })).status).toBe(400);
      expect((await get(hook.id)).url).toBe(receiver.url("/creds"));
      await request(`/webhook/${hook.id}`, { method: "DELETE" });
    });

    it("allows the console's receiver of bank events, the one console address meant for the bank", async () => {
      const hook = await create({ url: `http://127.0.0.1:${consolePort}/api/bank-events/sandbox`, event: "ach.update" });
      expect(hook.url).toBe(`http://127.0.0.1:${consolePort}/api/bank-events/sandbox`);
      await request(`/webhook/${hook.id}`, { method: "DELETE" });
    });

    it("creates a webhook (201) with every field present, the secret never returned", async () => {
      const created = await create({
        url: receiver.url("/created"),
        event: "ach.update",
        basic_user: "hook",
        basic_secret: "secret",
        userdata: { team: "ops" },
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^webhook_[A-Za-z0-9_-]+$/),
        url: receiver.url("/created"),
        event: "ach.update",
        status: "enabled",
        basic_user: "hook",
        basic_secret: null,
        error: null,
        userdata: { team: "ops" },
        created_at: expect.stringMatching(timestampPattern),
        updated_at: expect.stringMatching(timestampPattern),
      });
      expect(await get(created.id)).toEqual(created);
    });

    it("lists webhooks newest first, filtered by status and event, paged", async () => {
      const first = await create({ url: receiver.url("/list"), event: "fednow.create" });
      const second = await create({ url: receiver.url("/list"), event: "fednow.create" });
      const listed = (await request("/webhook?event=fednow.create")).body as Page<WebhookBody>;
      expect(listed.data.map((w) => w.id)).toEqual([second.id, first.id]);
      const page = (await request("/webhook?event=fednow.create&page_size=1")).body as Page<WebhookBody>;
      expect(page.data.map((w) => w.id)).toEqual([second.id]);
      expect(page.page_next).toContain("event=fednow.create");
      const next = (await request(page.page_next!)).body as Page<WebhookBody>;
      expect(next.data.map((w) => w.id)).toEqual([first.id]);
      expect(next.page_next).toBeUndefined();
      expect(((await request("/webhook?status=error&event=fednow.create")).body as Page<WebhookBody>).data).toEqual([]);
    });

    it.each([
      ["a url that is not http(s)", { url: "ftp://example.com/x", event: "ach.update" }, "url"],
      ["an unknown event", { url: "https://example.com/x", event: "ach.deleted" }, "event"],
      ["a missing event", { url: "https://example.com/x" }, "event"],
      ["an unknown field", { url: "https://example.com/x", event: "ach.update", status: "enabled" }, "status"],
      ["userdata over 1 KB", { url: "https://example.com/x", event: "ach.update", userdata: { a: "x".repeat(1100) } }, "userdata"],
    ])("refuses to create with %s: 400 naming the field", async (_case, json, field) => {
      const response = await request("/webhook", { method: "POST", json });
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toContain(field);
    });

    it("answers 415 to a body that is not JSON and 405 to a method the path does not have", async () => {
      const notJson = await request("/webhook", { method: "POST", body: "url=x", headers: { "content-type": "text/plain" } });
      expect(notJson.status).toBe(415);
      const put = await request("/webhook/webhook_any", { method: "PUT", json: {} });
      expect(put.status).toBe(405);
      expect(put.headers.get("allow")).toContain("PATCH");
    });

    it("answers 404 for an unknown webhook id on every operation", async () => {
      for (const [method, path] of [
        ["GET", "/webhook/webhook_nope"],
        ["PATCH", "/webhook/webhook_nope"],
        ["DELETE", "/webhook/webhook_nope"],
        ["GET", "/webhook/webhook_nope/deliveries"],
      ] as const) {
        const response = await request(path, { method, ...(method === "PATCH" && { json: { userdata: {} } }) });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect((response.body as { error: string }).error).toContain("webhook_nope");
      }
    });
  });

  describe("update and delete", () => {
    it.each([
      ["status error (only the sandbox sets it)", { status: "error" }, "status"],
      ["the error field", { error: "no" }, "error"],
      ["an unknown field", { colour: "blue" }, "colour"],
      ["nothing at all", {}, "Nothing to update"],
    ])("refuses a PATCH of %s with 400", async (_case, json, text) => {
      const hook = await create({ url: receiver.url("/patch"), event: "card.update" });
      const response = await patch(hook.id, json);
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toContain(text);
    });

    it("updates url, event, credentials and userdata, and tells webhook.update subscribers", async () => {
      const hook = await create({ url: receiver.url("/before"), event: "card.update", basic_user: "a", basic_secret: "b" });
      const watcher = await create({ url: receiver.url("/watch-updates"), event: "webhook.update" });
      const response = await patch(hook.id, {
        url: receiver.url("/after"),
        event: "card.create",
        basic_user: null,
        basic_secret: null,
        userdata: { v: 2 },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        url: receiver.url("/after"),
        event: "card.create",
        basic_user: null,
        basic_secret: null,
        userdata: { v: 2 },
      });
      const notice = await eventually(() => receiver.at("/watch-updates").find((n) => n.body.id === hook.id));
      expect(notice.body).toEqual({ event: "webhook.update", op: "update", id: hook.id, url: `${fixture.sandbox.url}/webhook/${hook.id}` });
      await request(`/webhook/${watcher.id}`, { method: "DELETE" });
    });

    it("deletes a webhook (204); it is gone and receives nothing more", async () => {
      const hook = await create({ url: receiver.url("/deleted"), event: "network_transfer.update" });
      expect((await request(`/webhook/${hook.id}`, { method: "DELETE" })).status).toBe(204);
      expect((await request(`/webhook/${hook.id}`)).status).toBe(404);
      const control = await create({ url: receiver.url("/delete-control"), event: "network_transfer.update" });
      await touchTransfer("nt_fixture1");
      await eventually(() => receiver.at("/delete-control").length > 0);
      expect(receiver.at("/deleted")).toEqual([]);
      await request(`/webhook/${control.id}`, { method: "DELETE" });
    });
  });

  describe("delivery through the API", () => {
    it("notifies an enabled webhook of a change with Basic credentials, and stays silent while it is disabled", async () => {
      const hook = await create({ url: receiver.url("/transfers"), event: "network_transfer.update", basic_user: "u", basic_secret: "p" });
      await touchTransfer("nt_fixture2");
      const notification = await eventually(() => receiver.at("/transfers").find((n) => n.body.id === "nt_fixture2"));
      expect(notification.body).toEqual({
        event: "network_transfer.update",
        op: "update",
        id: "nt_fixture2",
        url: `${fixture.sandbox.url}/network_transfer/nt_fixture2`,
      });
      expect(notification.headers.authorization).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);

      expect((await patch(hook.id, { status: "disabled" })).body).toMatchObject({ status: "disabled", error: null });
      const control = await create({ url: receiver.url("/transfers-control"), event: "network_transfer.update" });
      await touchTransfer("nt_fixture3");
      await eventually(() => receiver.at("/transfers-control").find((n) => n.body.id === "nt_fixture3"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.at("/transfers").filter((n) => n.body.id === "nt_fixture3")).toEqual([]);
      await request(`/webhook/${hook.id}`, { method: "DELETE" });
      await request(`/webhook/${control.id}`, { method: "DELETE" });
    });

    it("puts a failing webhook in error after the threshold, says so to webhook.update subscribers, and resumes on reset", async () => {
      let healthy = false;
      receiver.respondWith((path) => (path === "/broken" && !healthy ? 500 : 200));
      const hook = await create({ url: receiver.url("/broken"), event: "network_transfer.update" });
      await create({ url: receiver.url("/watch-errors"), event: "webhook.update" });
      await touchTransfer("nt_fixture4");
      await touchTransfer("nt_fixture5");

      await eventually(() => receiver.at("/watch-errors").find((n) => n.body.id === hook.id));
      const errored = await get(hook.id);
      expect(errored.status).toBe("error");
      expect(errored.error).toMatch(/bad responses/);
      const sentWhileFailing = receiver.at("/broken").length;

      healthy = true;
      const reset = await patch(hook.id, { status: "enabled" });
      expect(reset.body).toMatchObject({ status: "enabled", error: null });
      // Both pending notifications are delivered once the webhook is enabled again, and the attempts say so.
      const all = await eventually(async () => {
        const listed = await deliveries(hook.id, "?page_size=1000");
        return listed.data.filter((d) => d.succeeded).length === 2 && listed;
      });
      expect(receiver.at("/broken").length).toBeGreaterThan(sentWhileFailing);
      expect(
        all.data
          .filter((d) => d.succeeded)
          .map((d) => d.object_id)
          .sort(),
      ).toEqual(["nt_fixture4", "nt_fixture5"]);
      const page = await deliveries(hook.id, "?page_size=2");
      expect(page.data).toEqual(all.data.slice(0, 2));
      expect(page.page_next).toContain(`/webhook/${hook.id}/deliveries?page_size=2&page_cursor=`);
      const failed = all.data.find((d) => !d.succeeded)!;
      expect(failed).toMatchObject({
        webhook_id: hook.id,
        event: "network_transfer.update",
        op: "update",
        status_code: 500,
        succeeded: false,
        url: receiver.url("/broken"),
        attempted_at: expect.stringMatching(timestampPattern),
      });
      expect(failed.id).toMatch(/^whd_/);
      expect(failed.error).toContain("HTTP 500");
      // Each attempt carries the notification as sent and the start of the receiver's reply.
      expect(JSON.parse(failed.request_body!)).toEqual({
        event: "network_transfer.update",
        op: "update",
        id: failed.object_id,
        url: `${fixture.sandbox.url}/network_transfer/${failed.object_id}`,
      });
      expect(failed.response_body).toBe("receiver failed on purpose");
      expect(all.data.find((d) => d.succeeded)!.response_body).toBe("");
      // Filtered by outcome: exactly the failed attempts, or exactly the delivered ones, in the same order.
      const failedOnly = await deliveries(hook.id, "?page_size=1000&succeeded=false");
      expect(failedOnly.data).toEqual(all.data.filter((d) => !d.succeeded));
      expect((await deliveries(hook.id, "?page_size=1000&succeeded=true")).data).toEqual(all.data.filter((d) => d.succeeded));
      const firstFailedPage = await deliveries(hook.id, "?page_size=1&succeeded=false");
      expect(firstFailedPage.page_next).toContain("succeeded=false");
      const badOutcome = await request(`/webhook/${hook.id}/deliveries?succeeded=failed`);
      expect(badOutcome.status).toBe(400);
      expect((badOutcome.body as { error: string }).error).toContain("succeeded must be one of true, false");
      // Newest first.
      const times = all.data.map((d) => d.attempted_at);
      expect([...times].sort().reverse()).toEqual(times);
    });
  });
});
