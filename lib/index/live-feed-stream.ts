import { z } from "zod";
import { badInput, ConsoleError, unauthorized } from "@/lib/api/errors";
import type { ApiCall, RouteDefinition } from "@/lib/api/route";
import { isDraining, onShutdown } from "@/lib/health/shutdown";
import { mayWatch, type LiveFeed, type LiveMessage, type LiveSubscription } from "./live-feed";
import { watchLiveSessions, type LiveSessionLimits, type LiveSessions, type StreamEnd } from "./live-feed-sessions";

/** A version id as the client sends it back: a whole number, as `?after=` and as the `Last-Event-ID` header. */
const versionId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, "expected a version id (a whole number, as the stream's event ids)")
  .transform(Number);

const liveQuery = z.object({ after: versionId.optional() });

/** Comment lines keep proxies and the browser from timing the connection out while nothing changes. */
export const heartbeatMs = 15_000;
/**
 * A client with this many bytes written for it and unread is dropped (its queue discarded); its EventSource reconnects
 * and catches up from the last id it read. About 10,000 changes: a tab that reads at all never comes near it.
 */
export const maxUnreadBytes = 1024 * 1024;

/**
 * One message as Server-Sent Events:
 * - `event: change`, `id: <version id>`, `data: {"environment","resource","id"}` (the object's id; nothing else);
 * - `event: reset`, `id: <newest version id>`, `data: {"latestId"}`: too far behind to catch up change by change,
 *   read everything again;
 * - `event: ready`, `id: <newest version id>`, `data: {"latestId"}`: caught up, later changes follow as they commit;
 * - `event: end`, `data: {"reason"}` (`endEvent`), the last: the session ended (lib/auth/sessions.ts: `ended`, `expired`,
 *   `idle`), reconnecting would be refused and the client signs in again; or `restarting`, this process is stopping
 *   (scripts/console-server.ts) and the client reconnects at once from its last id, which the load balancer sends to
 *   another instance. Every end carries `retry:` for clients that let EventSource reconnect on its own.
 */
export function serverSentEvent(message: LiveMessage): string {
  if (message.type === "change") {
    const { id, environment, resource, objectId } = message.change;
    return `event: change\nid: ${id}\ndata: ${JSON.stringify({ environment, resource, id: objectId })}\n\n`;
  }
  return `event: ${message.type}\nid: ${message.latestId}\ndata: ${JSON.stringify({ latestId: message.latestId })}\n\n`;
}

/** How long an EventSource left to itself waits before reconnecting after an end (`retry:`). */
export const reconnectHintMs = 500;

export const endEvent = (reason: StreamEnd) => `retry: ${reconnectHintMs}\nevent: end\ndata: ${JSON.stringify({ reason })}\n\n`;

export interface LiveStreamOptions extends LiveSessionLimits {
  maxUnreadBytes?: number;
}

/**
 * The live route for the ONE route wrapper (lib/api/route.ts): signed in (401), `bank:read` (403), the `liveOpen`
 * rate limit (429), `?after=` and `Last-Event-ID` well-formed (400 naming which), at most 6 open streams per session
 * and 20 per user (429 naming the cap). Starts after the larger of the two ids (an EventSource reconnecting on its own
 * sends the header, with the URL it was opened with), else after the newest change now. A stream lasts only as long as
 * its session (lib/index/live-feed-sessions.ts) and its client keeps reading (`maxUnreadBytes`).
 */
export function liveStreamRoute(
  feed: () => Promise<LiveFeed>,
  sessions: LiveSessions,
  options: LiveStreamOptions = {},
): RouteDefinition<unknown, z.infer<typeof liveQuery>> {
  const unreadBound = options.maxUnreadBytes ?? maxUnreadBytes;
  const watch = watchLiveSessions(sessions, options);
  onShutdown("live streams", () => watch.endAll("restarting"));
  return {
    permission: "bank:read",
    rateLimit: "liveOpen",
    query: liveQuery,
    // Served over HTTP only (no page reads a stream), so the request is always there.
    async handle({ request, query, user }: ApiCall<unknown, z.infer<typeof liveQuery>> & { request: Request }) {
      const header = request.headers.get("last-event-id");
      const parsedHeader = header === null || header === "" ? undefined : versionId.safeParse(header.trim());
      if (parsedHeader && !parsedHeader.success) throw badInput(`Invalid Last-Event-ID header: ${parsedHeader.error.issues[0]!.message}`);
      const starts = [query.after, parsedHeader?.data].filter((id) => id !== undefined);
      const after = starts.length > 0 ? Math.max(...starts) : null;
      const token = await sessions.token();
      if (!token) throw unauthorized();
      // Past the shutdown step that ends open streams, a new one here would be held open until the grace runs out;
      // the load balancer sends this GET again to another instance (HAProxy: retry-on 503).
      if (isDraining()) throw new ConsoleError(503, "restarting", "This console instance is restarting; connect again.", { "retry-after": "1" });
      const encoder = new TextEncoder();
      let open = true;
      let stop: (how?: "close" | "drop") => void = () => {};
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      // `start` runs within the constructor, so the controller is there for the catch-up below. The queue is measured
      // in bytes: `desiredSize` is 1 minus the bytes written and not yet read.
      const stream = new ReadableStream<Uint8Array>(
        { start: (given) => void (controller = given), cancel: () => stop() },
        { highWaterMark: 1, size: (chunk) => chunk.byteLength },
      );
      // The events of one tick (a batch of changes, a catch-up) go out as one chunk: one socket write, not one each.
      let unsent = "";
      const flush = () => {
        const text = unsent;
        unsent = "";
        if (!open || text === "") return;
        controller.enqueue(encoder.encode(text));
        if ((controller.desiredSize ?? 0) < -unreadBound) stop("drop");
      };
      const send = (text: string) => {
        if (!open) return;
        if (unsent === "") queueMicrotask(flush);
        unsent += text;
      };
      // Counted before anything is awaited, so concurrent opens cannot pass the caps together.
      let sessionEnded = false;
      const release = watch.admit(token, (reason) => {
        if (sessionEnded) return;
        sessionEnded = true;
        if (reason) send(endEvent(reason));
        // After the end event's flush (a microtask queued by `send`).
        queueMicrotask(() => stop());
      });
      let subscription: LiveSubscription;
      try {
        // Subscribed before answering: a database that cannot be read fails the request (the wrapper's 500), not the stream.
        subscription = await (
          await feed()
        ).subscribe(after, (message) => {
          if (message.type !== "change" || mayWatch(user.role, message.change.resource)) send(serverSentEvent(message));
        });
      } catch (error) {
        release();
        throw error;
      }
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
      const onAbort = () => stop();
      stop = (how = "close") => {
        if (!open) return;
        open = false;
        release();
        clearInterval(heartbeat);
        subscription.close();
        request.signal.removeEventListener("abort", onAbort);
        try {
          // Dropped: the unread queue is discarded at once; closed: what is queued (an end event) is still read.
          if (how === "drop") controller.error(new Error("the live client read too slowly"));
          else controller.close();
        } catch {
          // already closed: the client went away
        }
      };
      // The session may have ended while the catch-up was read.
      if (request.signal.aborted || sessionEnded) stop();
      else request.signal.addEventListener("abort", onAbort);
      return new Response(stream, {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          // no-transform: Next.js gzipped the stream otherwise (a deflate stream per tab, each event compressed and
          // flushed alone: 0.7 s of CPU in 15 s of bench:events), and a proxy may hold compressed events back.
          "Cache-Control": "no-store, no-transform",
          "X-Accel-Buffering": "no",
        },
      });
    },
  };
}
