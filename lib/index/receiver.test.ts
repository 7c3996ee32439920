import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { serveReceiver } from "@/tests/support/receiver-server";
import { rateLimitRules, resetRateLimits } from "@/lib/api/rate-limit";
import { createInboxWriter } from "./inbox";
import { inboxFullRetryAfterSeconds, receiveNotification } from "./receiver";
import { ensureReceiverCredentials, type ReceiverCredentials } from "./receiver-credentials";

// The console's receiver of the bank's notifications (POST /api/bank-events/{environment}) on a real console database:
// what it checks, what it stores and how it answers. It needs no bank: it never fetches anything (processing is
// bank-index.test.ts).

const notificationOf = (id: string) => ({ event: "ach.update", op: "update", id, url: `http://bank.test/ach/${id}` });
const notificationOfLength = (length: number) => notificationOf(`ach_${"a".repeat(length - 4)}`);

const basic = (credentials: Pick<ReceiverCredentials, "username" | "secret">) =>
  `Basic ${Buffer.from(`${credentials.username}:${credentials.secret}`).toString("base64")}`;

describe.each(testDatabaseTargets)("the receiver of the bank's notifications on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let credentials: ReceiverCredentials;
  // The receiver's store as the console runs it: notifications arriving together go in one statement.
  let writer: ReturnType<typeof createInboxWriter> | undefined;
  const writeInbox: ReturnType<typeof createInboxWriter> = (received) => (writer ??= createInboxWriter(database.db))(received);

  const receive = (body: unknown, authorization: string | null = basic(credentials)) =>
    receiveNotification(
      new Request("http://console.test/api/bank-events/sandbox", {
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization && { authorization }) },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
      "sandbox",
      { credentialsOf: async () => credentials, store: (environment, notification) => writeInbox({ environment, notification }) },
    );
  const inboxRows = (objectId: string) =>
    database.db
      .select()
      .from(schema.bankEventInbox)
      .where(and(eq(schema.bankEventInbox.environment, "sandbox"), eq(schema.bankEventInbox.objectId, objectId)));

  beforeAll(async () => {
    credentials = await ensureReceiverCredentials(database.db, "sandbox", randomBytes(32), "test");
  });

  it("stores a good delivery once and answers 200; a repeat before processing only counts as a second delivery", async () => {
    const id = `ach_receiver_${randomBytes(4).toString("hex")}`;
    expect((await receive(notificationOf(id))).status).toBe(200);
    expect((await receive(notificationOf(id))).status).toBe(200);
    const rows = await inboxRows(id);
    expect(rows).toEqual([expect.objectContaining({ event: "ach.update", op: "update", resource: "ach", state: "pending", deliveries: 2 })]);
  });

  it("stores a burst arriving together (as the bank sends them) once each, repeats in the burst counted as deliveries", async () => {
    const ids = Array.from({ length: 12 }, (_, index) => `ach_burst_${index}_${randomBytes(4).toString("hex")}`);
    const answers = await Promise.all([...ids, ...ids.slice(0, 4)].map((id) => receive(notificationOf(id))));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    for (const [index, id] of ids.entries()) {
      expect(await inboxRows(id)).toEqual([expect.objectContaining({ state: "pending", deliveries: index < 4 ? 2 : 1 })]);
    }
  });

  it.each([
    ["missing", null],
    ["wrong", basic({ username: "console-sandbox", secret: "not-the-secret" })],
    ["malformed", "Basic %%%"],
    ["another scheme", "Bearer abc"],
  ])("refuses %s credentials with 401 and stores nothing", async (_name, authorization) => {
    const id = `ach_unauth_${randomBytes(4).toString("hex")}`;
    const response = await receive(notificationOf(id), authorization);
    expect(response.status).toBe(401);
    expect(await inboxRows(id)).toEqual([]);
  });

  it.each([
    ["not JSON", "{", /not acceptable JSON/],
    ["an unknown event", { event: "loan.update", op: "update", id: "ach_x", url: "http://bank/ach/ach_x" }, /event: expected <resource>/],
    [
      "op not matching the event",
      { event: "ach.update", op: "create", id: "ach_x", url: "http://bank/ach/ach_x" },
      /op: does not match event ach.update/,
    ],
    [
      "a url of another object",
      { event: "ach.update", op: "update", id: "ach_x", url: "http://bank/ach/ach_y" },
      /url: expected the address of ach_x/,
    ],
    ["a missing id", { event: "ach.update", op: "update", url: "http://bank/ach/ach_x" }, /id:/],
    // The receiver allowed 128 characters, the bank's path 100: such a row was fetched, refused 400 and retried forever.
    ["an id over 100 characters", notificationOfLength(101), /id: at most 100 characters/],
    [
      "an id the bank never makes (past the prefix and 64 characters)",
      notificationOfLength(100),
      /id: expected an id of kind ach: ach_ then 1 to 64/,
    ],
    [
      "an id of another kind than the event's (an ACH transfer named by a card event)",
      { event: "card.update", op: "update", id: "ach_x", url: "http://bank/card/ach_x" },
      /id: an id of kind ach \(ach_\), not card/,
    ],
    ["an array", [], /\(body\)/],
  ])("refuses %s with 400 naming what is wrong, and stores nothing", async (_name, body, message) => {
    const before = await database.db.select({ count: sql<number>`count(*)::int` }).from(schema.bankEventInbox);
    const response = await receive(body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(message);
    expect(await database.db.select({ count: sql<number>`count(*)::int` }).from(schema.bankEventInbox)).toEqual(before);
  });

  it("past the cap on waiting notifications answers 503 with Retry-After and stores nothing, so the bank sends it again later", async () => {
    const waiting = async () =>
      (
        await database.db
          .select({ count: sql<number>`count(*)::int` })
          .from(schema.bankEventInbox)
          .where(and(eq(schema.bankEventInbox.environment, "sandbox"), sql`${schema.bankEventInbox.state} <> 'processed'`))
      )[0]!.count;
    const capped = createInboxWriter(database.db, { maxPending: (await waiting()) + 1 });
    const receiveCapped = (id: string) =>
      receiveNotification(
        new Request("http://console.test/api/bank-events/sandbox", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: basic(credentials) },
          body: JSON.stringify(notificationOf(id)),
        }),
        "sandbox",
        { credentialsOf: async () => credentials, store: (environment, notification) => capped({ environment, notification }) },
      );
    const [first, second] = [`ach_cap_${randomBytes(4).toString("hex")}`, `ach_cap_${randomBytes(4).toString("hex")}`];
    expect((await receiveCapped(first)).status).toBe(200);
    const refused = await receiveCapped(second);
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([503, String(inboxFullRetryAfterSeconds)]);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("inbox_full");
    expect(await inboxRows(first)).toEqual([expect.objectContaining({ state: "pending" })]);
    expect(await inboxRows(second)).toEqual([]);
  });

  it("past the receiver's rate limit answers 503 with Retry-After before reading the body, per environment", async () => {
    resetRateLimits();
    try {
      const production = await ensureReceiverCredentials(database.db, "production", randomBytes(32), "test");
      const post = (environment: "sandbox" | "production", authorization: string) =>
        receiveNotification(
          new Request(`http://console.test/api/bank-events/${environment}`, { method: "POST", headers: { authorization }, body: "{" }),
          environment,
          { credentialsOf: async (name) => (name === "sandbox" ? credentials : production), store: async () => undefined },
        );
      // Forged posts (wrong credentials) spend nothing of the bank's allowance.
      expect((await post("sandbox", basic({ username: "console-sandbox", secret: "forged" }))).status).toBe(401);
      for (let sent = 0; sent < rateLimitRules.receiver.points; sent++) {
        const answer = await post("sandbox", basic(credentials));
        if (answer.status !== 400) throw new Error(`answer ${sent + 1} was ${answer.status}, expected 400 (not JSON)`);
      }
      const limited = await post("sandbox", basic(credentials));
      expect(limited.status).toBe(503);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
      expect((await post("production", basic(production))).status).toBe(400);
    } finally {
      resetRateLimits();
    }
  });

  it("answers 404 for an environment that does not exist", async () => {
    const response = await receiveNotification(new Request("http://console.test/x", { method: "POST", body: "{}" }), "staging", {
      credentialsOf: async () => credentials,
      store: async () => undefined,
    });
    expect(response.status).toBe(404);
  });

  it("over HTTP, as the console's own server answers it: headers of a data answer, and a body past the limit refused unstored", async () => {
    const receiver = await serveReceiver({
      credentialsOf: async () => credentials,
      store: (environment, notification) => writeInbox({ environment, notification }),
    });
    try {
      const id = `ach_http_${randomBytes(4).toString("hex")}`;
      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(receiver.url("sandbox"), {
          method: "POST",
          headers: { authorization: basic(credentials), "content-type": "application/json", ...headers },
          body,
        });
      const stored = await post(JSON.stringify(notificationOf(id)));
      expect([stored.status, stored.headers.get("content-security-policy"), stored.headers.get("cache-control")]).toEqual([
        200,
        "default-src 'none'; frame-ancestors 'none'",
        "no-store",
      ]);
      const padded = JSON.stringify({ ...notificationOf(`${id}_big`), padding: "x".repeat(1024 * 1024) });
      expect((await post(padded)).status).toBe(413);
      expect((await post(JSON.stringify(notificationOf(id)), { authorization: "Basic eDp5" })).status).toBe(401);
      expect(await inboxRows(id)).toEqual([expect.objectContaining({ deliveries: 1 })]);
      expect(await inboxRows(`${id}_big`)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
