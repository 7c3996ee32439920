import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { StaffUser } from "@/lib/auth/staff-user";
import { receiveNotification } from "@/lib/index/receiver";
import { createLogger } from "@/lib/log";
import { createApiRoute, maxBodyBytes } from "./route";

// Request bodies are bounded: refused by Content-Length unread, and a body without a length is read only up to the
// cap (docs/security.md, "Requests started by another site, and request bodies"). No database is involved: both
// callers refuse before reaching one.

const chunkBytes = 16 * 1024;

/** A body of `totalBytes` in 16 KB chunks that counts how many bytes the server pulled from it. */
function countedBody(totalBytes: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      pulled += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
  });
  return { stream, pulled: () => pulled };
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://console.test/api/thing", {
    method: "POST",
    body,
    headers: { origin: "http://console.test", ...headers },
    duplex: "half",
  } as RequestInit);

const operations: StaffUser = { id: "stf_ops", email: "ops@demo.bank", name: "Ops", role: "operations", locked: false };
const route = createApiRoute({ currentUser: async () => operations, log: createLogger({ level: "silent" }) })({
  permission: "bank:read",
  body: z.unknown(),
  handle: async () => "never",
});

const credentials = { username: "console-sandbox", secret: "s3cret", keyId: "rcv_1" };
const receive = (request: Request) =>
  receiveNotification(request, "sandbox", { credentialsOf: async () => credentials, store: async () => Promise.reject(new Error("never stored")) });
const authorization = `Basic ${Buffer.from("console-sandbox:s3cret").toString("base64")}`;

describe("bounded request bodies", () => {
  it("the route wrapper stops reading a body without a length once it passes the cap (413)", async () => {
    const body = countedBody(8 * 1024 * 1024);
    const response = await route(post(body.stream));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: "payload_too_large", message: "The request body is larger than 64 KB." } });
    expect(body.pulled()).toBeLessThanOrEqual(maxBodyBytes + 2 * chunkBytes);
  });

  it("the route wrapper refuses a declared Content-Length above the cap without reading the body", async () => {
    const body = countedBody(8 * 1024 * 1024);
    const response = await route(post(body.stream, { "content-length": String(8 * 1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(chunkBytes);
  });

  it("the route wrapper still reads a body at the cap", async () => {
    const echo = createApiRoute({ currentUser: async () => operations, log: createLogger({ level: "silent" }) })({
      permission: "bank:read",
      body: z.object({ padding: z.string() }),
      handle: async ({ body }) => ({ length: (body as { padding: string }).padding.length }),
    });
    const padding = "x".repeat(maxBodyBytes - '{"padding":""}'.length);
    const response = await echo(post(JSON.stringify({ padding }), { "content-type": "application/json" }));
    expect([response.status, await response.json()]).toEqual([200, { length: padding.length }]);
  });

  it("the bank-events receiver stops reading a body without a length once it passes its cap (413, nothing stored)", async () => {
    const body = countedBody(8 * 1024 * 1024);
    const response = await receive(post(body.stream, { authorization }));
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(8 * 1024 + 2 * chunkBytes);
  });
});
