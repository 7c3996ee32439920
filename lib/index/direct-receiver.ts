import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "@/lib/log";
import { setDataResponseHeaders } from "@/lib/security-headers";
import { maxNotificationBytes } from "./receiver";

/**
 * The bank's notifications answered by the console's own HTTP server (scripts/console-server.ts) before Next.js sees
 * them. The bank sends them in bursts (the sandbox: up to 16 at once), and each one through Next.js's request
 * pipeline cost ~1.7 ms of CPU, so the last of a burst waited for the fifteen before it: receiver p99 241-310 ms
 * against a 50 ms target (docs/benchmarks.md). The answer is the same function the Next.js route handler calls
 * (lib/index/runtime.ts registers it here when the index starts), so there is one receiver, reached two ways:
 * directly under `npm start`, through the route under `next dev` or before the index has started.
 */
export type Receive = (request: Request, environment: string) => Promise<Response>;

const registry = ((globalThis as { __bankEventReceiver?: { receive?: Receive } }).__bankEventReceiver ??= {});

export function registerDirectReceiver(receive: Receive): void {
  registry.receive = receive;
}

/** Plain names only (`sandbox`, `production`, or a wrong one the receiver answers 404); anything encoded goes to Next.js. */
const receiverPath = /^\/api\/bank-events\/([a-z]+)$/;

/**
 * Answers `request` when it is a notification and the index is running in this process; false leaves it to Next.js.
 */
export function answeredDirectly(request: IncomingMessage, response: ServerResponse): boolean {
  const receive = registry.receive;
  const environment = receive && notificationEnvironment(request);
  if (!environment) return false;
  void answerNotification(receive, environment, request, response);
  return true;
}

/** The environment a notification is posted for, or null when `request` is not a notification. */
export function notificationEnvironment(request: IncomingMessage): string | null {
  return request.method === "POST" ? (receiverPath.exec(request.url ?? "")?.[1] ?? null) : null;
}

/**
 * Answers a notification over node:http with `receive`. The body is read up to one byte past the receiver's limit and
 * the rest discarded, so memory stays bounded whatever is sent; the receiver then refuses it (413) after checking the
 * credentials, as through the route.
 */
export async function answerNotification(receive: Receive, environment: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const body = await readCapped(request, maxNotificationBytes + 1);
    const headers = new Headers();
    for (const name of ["authorization", "content-type", "content-length"]) {
      const value = request.headers[name];
      if (typeof value === "string") headers.set(name, value);
    }
    const answer = await receive(
      new Request(`http://console.internal${request.url}`, { method: "POST", headers, body: new Uint8Array(body) }),
      environment,
    );
    setDataResponseHeaders(answer.headers, { url: { protocol: "http:" }, forwardedProto: headerValue(request, "x-forwarded-proto") });
    const text = await answer.text();
    answer.headers.set("content-length", String(Buffer.byteLength(text)));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(text);
  } catch (error) {
    // Nothing was stored (storing is the last step) and the answer is not 200, so the bank sends it again.
    log.error({ err: error, part: "bank-index" }, "a bank notification could not be stored");
    if (!response.headersSent) response.writeHead(503, { "content-type": "application/json", "cache-control": "no-store" });
    response.end(JSON.stringify({ error: { code: "unavailable", message: "The notification could not be stored; send it again." } }));
  }
}

function headerValue(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
}

function readCapped(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      if (size >= maxBytes) return;
      const kept = chunk.subarray(0, maxBytes - size);
      chunks.push(kept);
      size += kept.length;
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}
