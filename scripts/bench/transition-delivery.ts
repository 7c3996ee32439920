/**
 * A transition's request to its webhook delivered, for `npm run bench:sandbox-control`: a real HTTP receiver on
 * 127.0.0.1 subscribed to `ach.update`, `count` ACH transfers created with `POST /sandbox/ach`, then, one at a time,
 * `POST /sandbox/ach/{id}/transition {"to": "returned", "error": "R01"}` timed from its sending until the receiver
 * has both notifications the transition emits (pending → processing → returned: two `ach.update`, one transaction).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

type Request = (path: string, init?: { method?: string; json?: unknown }) => Promise<{ status: number; text: string }>;

/** Per transfer, in milliseconds from the transition's sending: its answer, and its notifications all received. */
export interface TransitionTiming {
  answered: number;
  delivered: number;
}

/** Notifications the transition to `returned` emits for a pending transfer (docs/sandbox-control.md, Transitions). */
const notificationsPerTransition = 2;

/** A receiver that answers 200 at once and tells who waits for an id when its notifications have all arrived. */
async function startReceiver() {
  const counts = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      response.end();
      const { id } = JSON.parse(text) as { id: string };
      const count = (counts.get(id) ?? 0) + 1;
      counts.set(id, count);
      if (count === notificationsPerTransition) waiting.get(id)?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ach-update`,
    /** Resolves once `id` has had all its notifications (at once if it already has). */
    delivered: (id: string) =>
      new Promise<void>((resolve) => {
        if ((counts.get(id) ?? 0) >= notificationsPerTransition) resolve();
        else waiting.set(id, resolve);
      }),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function expectCreated(answer: Promise<{ status: number; text: string }>, status: number): Promise<{ id: string }> {
  const { status: got, text } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { id: string };
}

/** Starts from an empty bank (a reset), so each store measures the same work. */
export async function measureTransitionDelivery(request: Request, count: number): Promise<TransitionTiming[]> {
  await expectCreated(request("/sandbox/reset", { method: "POST", json: { seed: "empty" } }), 200);
  const receiver = await startReceiver();
  try {
    await expectCreated(request("/webhook", { method: "POST", json: { url: receiver.url, event: "ach.update" } }), 201);
    await expectCreated(request("/sandbox/counterparty", { method: "POST", json: {} }), 201);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) ids.push((await expectCreated(request("/sandbox/ach", { method: "POST", json: {} }), 201)).id);
    const timings: TransitionTiming[] = [];
    for (const id of ids) {
      const delivered = receiver.delivered(id);
      const started = performance.now();
      await expectCreated(request(`/sandbox/ach/${id}/transition`, { method: "POST", json: { to: "returned", error: "R01" } }), 200);
      const answered = performance.now() - started;
      await delivered;
      timings.push({ answered, delivered: performance.now() - started });
    }
    return timings;
  } finally {
    await receiver.close();
  }
}
