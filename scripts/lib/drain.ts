import type { Server, ServerResponse } from "node:http";
import { isDraining, runShutdownSteps, startDraining } from "@/lib/health/shutdown";

export interface DrainResult {
  /** Requests that had not finished when the signal came (open live streams among them). */
  inFlight: number;
  /** Connections still open when the grace ran out, closed without their answer. */
  cut: number;
}

/**
 * A clean stop of the console's HTTP server: the readiness route answers 503 "draining" from now on, the listener
 * closes (new connections are refused, so a load balancer tries another instance), every part's shutdown step runs
 * (live streams end with a reason to reconnect, the index gives its leases back), and requests in flight finish within
 * `graceMs`; connections still open then are cut. Idle keep-alive connections are closed as they become idle, so a
 * balancer holding one opens its next request elsewhere.
 */
export async function drainServer(server: Server, graceMs: number, report: (name: string, error: unknown) => void = () => {}): Promise<DrainResult> {
  startDraining();
  closeWithTheirAnswers(server);
  const inFlight = openRequests(server);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const steps = runShutdownSteps(graceMs, report);
  let cut = 0;
  // Which one ended the wait, not the clock: a timer may fire a millisecond before Date.now() reaches its deadline.
  let graceRanOut = false;
  const graceOver = new Promise<void>((resolve) => setTimeout(() => resolve(void (graceRanOut = true)), graceMs).unref());
  const idleCloser = setInterval(() => server.closeIdleConnections(), 50);
  await Promise.race([Promise.all([closed, steps]), graceOver]);
  clearInterval(idleCloser);
  if (graceRanOut) {
    cut = await new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)));
    server.closeAllConnections();
  }
  return { inFlight, cut };
}

/** Requests being answered on `server` now: counted as they come, for the report at a stop. */
export function openRequests(server: Server): number {
  return (server as TrackedServer)[counter] ?? 0;
}

const counter = Symbol("open requests");
const answering = Symbol("responses being written");
type TrackedServer = Server & { [counter]?: number; [answering]?: Set<ServerResponse> };

/**
 * Counts `server`'s requests in flight (openRequests reads it), and while draining answers each with `Connection:
 * close`, so a keep-alive connection ends with the request it carried. Call once, before it listens.
 */
export function trackRequests(server: Server): void {
  const tracked = server as TrackedServer;
  tracked[counter] = 0;
  tracked[answering] = new Set();
  server.prependListener("request", (_request, response) => {
    tracked[counter]! += 1;
    tracked[answering]!.add(response);
    if (isDraining()) response.shouldKeepAlive = false;
    response.once("close", () => {
      tracked[counter]! -= 1;
      tracked[answering]!.delete(response);
    });
  });
}

/** The answers being written when draining starts: those whose headers have not left yet say `Connection: close`. */
function closeWithTheirAnswers(server: Server): void {
  for (const response of (server as TrackedServer)[answering] ?? []) {
    if (!response.headersSent) response.shouldKeepAlive = false;
  }
}
