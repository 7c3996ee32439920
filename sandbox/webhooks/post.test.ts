import { Agent, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startReceiver } from "@/tests/support/webhook-receiver";
import { postPinned } from "./post";

// How one notification is POSTed, apart from the worker that decides when (worker.test.ts): no database needed.

describe("posting to the checked address", () => {
  it("connects to the address the url was checked at and never resolves the name again", async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url("/")).port;
      // rebind.test resolves nowhere: only the pinned address can have reached the receiver.
      const reply = await postPinned(
        new URL(`http://rebind.test:${port}/pinned`),
        { address: "127.0.0.1", family: 4 },
        { "content-type": "application/json" },
        '{"id":"x"}',
        AbortSignal.timeout(5000),
      );
      expect(reply).toEqual({ status: 200, start: "" });
      expect(receiver.at("/pinned").map((request) => request.body)).toEqual([{ id: "x" }]);
    } finally {
      await receiver.close();
    }
  });
  it("keeps the connection open for the next notification to that address, and sends again on a new one when the receiver had closed it", async () => {
    const connectionOf = new WeakMap<object, number>();
    const received: [connection: number, body: string][] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        received.push([connectionOf.get(request.socket)!, body]);
        // The third notification finds the kept connection closed under it, as when a receiver's idle timeout wins.
        if (received.length === 3) request.socket.destroy();
        else response.end();
      });
    });
    let connections = 0;
    server.on("connection", (socket) => connectionOf.set(socket, ++connections));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const pool = new Agent({ keepAlive: true });
    try {
      const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/kept`);
      const post = (body: string) => postPinned(url, { address: "127.0.0.1", family: 4 }, {}, body, AbortSignal.timeout(5000), pool);
      expect([await post("a"), await post("b"), await post("c")].map((reply) => reply.status)).toEqual([200, 200, 200]);
      expect(received).toEqual([
        [1, "a"],
        [1, "b"],
        [1, "c"],
        [2, "c"],
      ]);
    } finally {
      pool.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
