import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedNotification {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: { event: string; op: string; id: string; url: string };
}

/** A status, or a status with the body to answer (default: "receiver failed on purpose" from 400 on, else empty). */
export type ReceiverAnswer = number | { status: number; body: string };

/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every request and answers with the
 * status `respond` picks (per path, so one receiver can play several webhooks; 200 unless told otherwise).
 */
export async function startReceiver() {
  const received: ReceivedNotification[] = [];
  let respond: (path: string, index: number) => ReceiverAnswer | Promise<ReceiverAnswer> = () => 200;
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", async () => {
      const path = request.url ?? "/";
      received.push({ at: performance.now(), path, headers: request.headers, body: JSON.parse(text) });
      const answer = await respond(path, received.filter((r) => r.path === path).length - 1);
      const status = typeof answer === "number" ? answer : answer.status;
      response.writeHead(status, status >= 300 && status < 400 ? { location: "http://127.0.0.1:1/elsewhere" } : {});
      response.end(typeof answer === "number" ? (status >= 400 ? "receiver failed on purpose" : "") : answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((r) => r.path === path),
    /** Decides the status of each request (possibly later): `index` counts the requests to that path, from 0. */
    respondWith(pick: (path: string, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>) {
      respond = pick;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` returns a value other than undefined/false, polling; fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
