import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { receiveNotification, type ReceiverDependencies } from "../receiver";

/**
 * The console's receiver (lib/index/receiver.ts) served over real HTTP on 127.0.0.1, so the sandbox bank's own
 * delivery worker posts to it exactly as it posts to the console's route.
 */
export async function serveReceiver(dependencies: ReceiverDependencies) {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", async () => {
      const environment = decodeURIComponent((incoming.url ?? "").split("/").pop() ?? "");
      const request = new Request(`http://127.0.0.1${incoming.url}`, {
        method: incoming.method,
        headers: Object.entries(incoming.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])),
        body: Buffer.concat(chunks),
      });
      const response = await receiveNotification(request, environment, dependencies);
      outgoing.writeHead(response.status, { "content-type": "application/json" });
      outgoing.end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (environment: string) => `http://127.0.0.1:${port}/api/bank-events/${environment}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
