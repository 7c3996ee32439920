import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { answerNotification, notificationEnvironment } from "@/lib/index/direct-receiver";
import { receiveNotification, type ReceiverDependencies } from "@/lib/index/receiver";

/**
 * The console's receiver (lib/index/receiver.ts) served over real HTTP on 127.0.0.1 the way the console's own server
 * answers it (lib/index/direct-receiver.ts), so the sandbox bank's delivery worker posts to it exactly as it posts to
 * the console. Anything but a notification's path answers 404.
 */
export async function serveReceiver(dependencies: ReceiverDependencies) {
  const server = createServer((request, response) => {
    const environment = notificationEnvironment(request);
    if (!environment) return void response.writeHead(404).end();
    void answerNotification((notification, name) => receiveNotification(notification, name, dependencies), environment, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (environment: string) => `http://127.0.0.1:${port}/api/bank-events/${environment}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
