import { describe, expect, it } from "vitest";
import { emitEvent } from "@/sandbox/events/emit";
import { testDatabaseTargets } from "@/tests/support/databases";
import { deliveryWorkerFixture, sandboxBaseUrl } from "@/tests/support/delivery-worker";
import { startLocalServer } from "@/tests/support/local-server";
import { eventually, startReceiver } from "@/tests/support/webhook-receiver";
import { maxReplyBytes } from "./post";

// What the delivery worker sends (the notification, its credentials), where it may send it (the address checked at
// each delivery), and what it keeps of the attempt (the body sent, the start of the reply). When it sends and how it
// records: worker.test.ts. How one POST is made: post.test.ts.

describe.each(testDatabaseTargets)("sending a notification on $name", (target) => {
  const fixture = deliveryWorkerFixture(target);
  const { start, addWebhook, addWebhookAt, attemptsOf, firstAttemptOf, deliveryOf, firstAt } = fixture;
  const db = () => fixture.db;

  it("POSTs {event, op, id, url} as JSON with the webhook's Basic credentials", async () => {
    await addWebhook("/auth", "ach.update", { basicUser: "hook-user", basicSecret: "s3cret:with colon" });
    start();
    await emitEvent(db(), { resource: "ach", op: "update", id: "ach_abc" });
    const notification = await firstAt("/auth");
    expect(notification.body).toEqual({ event: "ach.update", op: "update", id: "ach_abc", url: `${sandboxBaseUrl}/ach/ach_abc` });
    expect(notification.headers["content-type"]).toBe("application/json");
    expect(notification.headers.authorization).toBe(`Basic ${Buffer.from("hook-user:s3cret:with colon").toString("base64")}`);
  });

  it("sends no Authorization header when the webhook has no credentials, and uses the resource's API path", async () => {
    await addWebhook("/plain", "person_application.create");
    start();
    await emitEvent(db(), { resource: "person_application", op: "create", id: "apsn_1" });
    const notification = await firstAt("/plain");
    expect(notification.headers.authorization).toBeUndefined();
    expect(notification.body.url).toBe(`${sandboxBaseUrl}/apply/person_application/apsn_1`);
  });

  it("keeps with each attempt the body it sent and the start of the receiver's reply, failed or delivered", async () => {
    const id = await addWebhook("/bodies", "ach.update");
    fixture.receiver.respondWith((path, index) =>
      path !== "/bodies" ? 200 : index === 0 ? { status: 500, body: "database is down" } : { status: 200, body: '{"received":true}' },
    );
    start();
    await emitEvent(db(), { resource: "ach", op: "update", id: "ach_bodies" });
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(id);
      return rows.length === 2 && rows;
    });
    const sent = JSON.stringify({ event: "ach.update", op: "update", id: "ach_bodies", url: `${sandboxBaseUrl}/ach/ach_bodies` });
    expect(attempts.map((a) => [a.statusCode, a.requestBody, a.responseBody])).toEqual([
      [500, sent, "database is down"],
      [200, sent, '{"received":true}'],
    ]);
    // What the receiver got is byte for byte what was kept.
    expect(fixture.receiver.at("/bodies").map((r) => JSON.stringify(r.body))).toEqual([sent, sent]);
  });

  it("keeps a reply holding NUL bytes, which PostgreSQL text cannot hold, with each one replaced", async () => {
    const id = await addWebhook("/nul", "ach.update");
    fixture.receiver.respondWith((path) => (path === "/nul" ? { status: 200, body: "ok\u0000done" } : 200));
    start();
    await emitEvent(db(), { resource: "ach", op: "update", id: "ach_nul" });
    const attempt = await firstAttemptOf(id);
    expect(attempt).toMatchObject({ succeeded: true, statusCode: 200, responseBody: "ok\uFFFDdone" });
    expect(await deliveryOf(id)).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("reads at most a few KB of a 10 MB reply and cuts the connection", async () => {
    const tenMegabytes = 10 * 1024 * 1024;
    const sent = { bytes: 0, finished: false };
    const big = await startLocalServer((_request, response) => {
      response.writeHead(500, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (sent.bytes < tenMegabytes && !response.destroyed) {
          sent.bytes += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        if (sent.bytes >= tenMegabytes) response.end(() => (sent.finished = true));
      };
      pump();
    });
    try {
      const id = await addWebhookAt(`${big.url}/big`, "ach.create");
      start();
      await emitEvent(db(), { resource: "ach", op: "create", id: "ach_big" });
      const attempt = await firstAttemptOf(id);
      expect(attempt.error).toMatch(/^HTTP 500: x{200} \(only 200 or 202 acknowledge\)$/);
      expect(attempt.responseBody).toBe("x".repeat(maxReplyBytes));
      expect(sent.finished).toBe(false);
    } finally {
      await big.close();
    }
  });

  it("counts a 200 whose body never ends as delivered once the timeout ends, keeping the reply as far as it came", async () => {
    const slow = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("got it, still talking");
    });
    try {
      const id = await addWebhookAt(`${slow.url}/slow`, "ach.create");
      start({ requestTimeoutMs: 300 });
      await emitEvent(db(), { resource: "ach", op: "create", id: "ach_slow" });
      const attempt = await firstAttemptOf(id);
      expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, succeeded: true, error: null, responseBody: "got it, still talking" });
      expect(await deliveryOf(id)).toMatchObject({ state: "delivered", attempts: 1 });
    } finally {
      await slow.close();
    }
  });

  it("refuses at delivery a name that resolves to a network no setting allows, and delivers nothing there", async () => {
    const port = Number(new URL(fixture.receiver.url("/")).port);
    // "localhost" passed when the webhook was saved somewhere loopback was allowed; now it is not.
    const hook = await addWebhookAt(`http://localhost:${port}/internal`, "fednow.create");
    start({ allowedNetworks: [] });
    await emitEvent(db(), { resource: "fednow", op: "create", id: "fednow_private" });
    const attempt = await firstAttemptOf(hook);
    expect(attempt).toMatchObject({ succeeded: false, statusCode: null });
    expect(attempt.error).toMatch(/^refused: url http:\/\/localhost:\d+\/internal resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(fixture.receiver.at("/internal")).toEqual([]);
  });

  it("refuses targets on the console's own address, and still delivers to other loopback ports", async () => {
    // The shared receiver plays the console; a second one is a local receiver on another loopback port.
    const consolePort = Number(new URL(fixture.receiver.url("/")).port);
    const local = await startReceiver();
    try {
      const blocked = await addWebhookAt(`http://localhost:${consolePort}/api/bank/ach`, "fednow.create");
      await addWebhookAt(local.url("/allowed"), "fednow.create");
      start({ refusedConsole: { host: "127.0.0.1", port: consolePort } });
      await emitEvent(db(), { resource: "fednow", op: "create", id: "fednow_refused" });
      const attempt = await firstAttemptOf(blocked);
      expect(attempt).toMatchObject({ succeeded: false, statusCode: null });
      expect(attempt.error).toMatch(/^refused: url http:\/\/localhost:\d+\/api\/bank\/ach points at the console/);
      expect((await eventually(() => local.at("/allowed")[0])).body.id).toBe("fednow_refused");
      expect(fixture.receiver.at("/api/bank/ach")).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
