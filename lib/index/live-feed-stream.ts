import { z } from "zod";
import { badInput } from "@/lib/api/errors";
import type { ApiCall, RouteDefinition } from "@/lib/api/route";
import { mayWatch, type LiveFeed, type LiveMessage } from "./live-feed";

/** A version id as the client sends it back: a whole number, as `?after=` and as the `Last-Event-ID` header. */
const versionId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, "expected a version id (a whole number, as the stream's event ids)")
  .transform(Number);

const liveQuery = z.object({ after: versionId.optional() });

/** Comment lines keep proxies and the browser from timing the connection out while nothing changes. */
export const heartbeatMs = 15_000;
/** A client this far behind (writes queued, unread) is disconnected; it reconnects and catches up from its last id. */
const maxQueued = 10_000;

/**
 * One message as Server-Sent Events:
 * - `event: change`, `id: <version id>`, `data: {"environment","resource","id"}` (the object's id; nothing else);
 * - `event: reset`, `id: <newest version id>`, `data: {"latestId"}`: too far behind to catch up change by change,
 *   read everything again;
 * - `event: ready`, `id: <newest version id>`, `data: {"latestId"}`: caught up, later changes follow as they commit.
 */
export function serverSentEvent(message: LiveMessage): string {
  if (message.type === "change") {
    const { id, environment, resource, objectId } = message.change;
    return `event: change\nid: ${id}\ndata: ${JSON.stringify({ environment, resource, id: objectId })}\n\n`;
  }
  return `event: ${message.type}\nid: ${message.latestId}\ndata: ${JSON.stringify({ latestId: message.latestId })}\n\n`;
}

/**
 * The live route for the ONE route wrapper (lib/api/route.ts): signed in (401), `bank:read` (403), `?after=` and
 * `Last-Event-ID` well-formed (400 naming which). Starts after the larger of the two (an EventSource reconnecting on
 * its own sends the header, with the URL it was opened with), else after the newest change now.
 */
export function liveStreamRoute(feed: () => Promise<LiveFeed>): RouteDefinition<unknown, z.infer<typeof liveQuery>> {
  return {
    permission: "bank:read",
    query: liveQuery,
    // Served over HTTP only (no page reads a stream), so the request is always there.
    async handle({ request, query, user }: ApiCall<unknown, z.infer<typeof liveQuery>> & { request: Request }) {
      const header = request.headers.get("last-event-id");
      const parsedHeader = header === null || header === "" ? undefined : versionId.safeParse(header.trim());
      if (parsedHeader && !parsedHeader.success) throw badInput(`Invalid Last-Event-ID header: ${parsedHeader.error.issues[0]!.message}`);
      const starts = [query.after, parsedHeader?.data].filter((id) => id !== undefined);
      const after = starts.length > 0 ? Math.max(...starts) : null;
      const live = await feed();
      const encoder = new TextEncoder();
      let open = true;
      let stop = () => {};
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      // `start` runs within the constructor, so the controller is there for the catch-up below.
      const stream = new ReadableStream<Uint8Array>({ start: (given) => void (controller = given), cancel: () => stop() }, { highWaterMark: 1 });
      // The events of one tick (a batch of changes, a catch-up) go out as one chunk: one socket write, not one each.
      let unsent = "";
      const flush = () => {
        const text = unsent;
        unsent = "";
        if (!open) return;
        if ((controller.desiredSize ?? 0) < -maxQueued) return stop();
        controller.enqueue(encoder.encode(text));
      };
      const send = (text: string) => {
        if (!open) return;
        if (unsent === "") queueMicrotask(flush);
        unsent += text;
      };
      // Subscribed before answering: a database that cannot be read fails the request (the wrapper's 500), not the stream.
      const subscription = await live.subscribe(after, (message) => {
        if (message.type !== "change" || mayWatch(user.role, message.change.resource)) send(serverSentEvent(message));
      });
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
      stop = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        subscription.close();
        request.signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // already closed: the client went away
        }
      };
      if (request.signal.aborted) stop();
      else request.signal.addEventListener("abort", stop);
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
