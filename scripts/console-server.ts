import { createServer } from "node:http";
import next from "next";
import { forwardedFor } from "@/lib/auth/client-address";
import { answeredDirectly } from "@/lib/index/direct-receiver";
import { readEnvOrExit } from "@/lib/env/read-env";
import { consoleEnvSchema } from "@/lib/env/schema";
import { drainServer, trackRequests } from "./lib/drain";

/**
 * The console's HTTP server: Next.js's own request handler behind a plain node:http server, for one reason. `next
 * start` keeps an X-Forwarded-For the client sent and adds the socket's address only when there is none, so any
 * client could choose the address the sign-in throttle counts it under. Here X-Forwarded-For is rewritten on every
 * request to what this process can vouch for (lib/auth/client-address.ts): the socket's peer, after the chain that a
 * TRUSTED_PROXIES proxy passed on. It also answers the bank's notifications itself, once the index has started
 * (lib/index/direct-receiver.ts says why), and stops cleanly on SIGTERM or SIGINT (scripts/lib/drain.ts).
 */
const env = readEnvOrExit(consoleEnvSchema);
const app = next({ dev: false, hostname: env.HOST, port: env.PORT });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  request.headers["x-forwarded-for"] = forwardedFor(request.headers["x-forwarded-for"], request.socket.remoteAddress, env.TRUSTED_PROXIES);
  if (answeredDirectly(request, response)) return;
  void handle(request, response);
});
trackRequests(server);
server.listen(env.PORT, env.HOST, () => console.log(`console listening on http://${env.HOST}:${env.PORT}`));

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  // A second signal while draining changes nothing: the grace bounds the stop either way.
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  console.log(`${signal}: draining (up to ${env.CONSOLE_SHUTDOWN_GRACE_SECONDS} s)`);
  const { inFlight, cut } = await drainServer(server, env.CONSOLE_SHUTDOWN_GRACE_SECONDS * 1000, (name, error) =>
    console.error(`shutdown step ${name} failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  console.log(`stopped in ${Date.now() - started} ms: ${inFlight} requests were in flight, ${cut} connections cut at the end of the grace`);
  process.exit(0);
}
process.on("SIGTERM", (signal) => void stop(signal));
process.on("SIGINT", (signal) => void stop(signal));
