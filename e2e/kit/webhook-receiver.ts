import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver for one test: an HTTP server on 127.0.0.1 (a free port) that keeps every notification the bank
 * sends it (docs/webhooks.md: `{"event", "op", "id", "url"}`) and answers 200, or whatever `reply` set, so a test can
 * subscribe it with `POST /webhook` and wait for what its own handler would get.
 */

export interface Notification {
  event: string;
  op: "create" | "update";
  /** The object's id. */
  id: string;
  /** The object's address in the API: fetch it for the current state (the payload carries none). */
  url: string;
  /** As received (lower-case names), e.g. `authorization` when the webhook has basic_user / basic_secret. */
  headers: IncomingHttpHeaders;
  receivedAt: Date;
}

export interface WebhookReceiver {
  /** The address to give `POST /webhook` as `url`. */
  url: string;
  /** Every notification received so far, oldest first. */
  notifications: Notification[];
  /** The first notification (already received or still to come) for which `predicate` holds; throws after `timeoutMs`. */
  waitFor(predicate: (notification: Notification) => boolean, options?: { timeoutMs?: number }): Promise<Notification>;
  /** The status answered from now on: 200 and 202 count as delivered; anything else makes the bank retry. */
  reply(status: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const notifications: Notification[] = [];
  const waiters = new Set<() => void>();
  let status = 200;

  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      try {
        const { event, op, id, url } = JSON.parse(body) as Notification;
        notifications.push({ event, op, id, url, headers: request.headers, receivedAt: new Date() });
        for (const wake of waiters) wake();
        response.writeHead(status).end();
      } catch {
        response.writeHead(400, { "content-type": "text/plain" }).end("not a JSON notification");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/webhook`,
    notifications,
    waitFor(predicate, { timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = notifications.find(predicate);
          if (!found) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          const seen = notifications.map((n) => `${n.event} ${n.id}`).join(", ") || "none";
          reject(new Error(`no matching notification within ${timeoutMs} ms; received: ${seen}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    reply(next) {
      status = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
