import { createServer } from "node:http";
import next from "next";
import { forwardedFor } from "@/lib/auth/client-address";
import { answeredDirectly } from "@/lib/index/direct-receiver";
import { readEnvOrExit } from "@/lib/env/read-env";
import { consoleEnvSchema } from "@/lib/env/schema";

/**
 * The console's HTTP server: Next.js's own request handler behind a plain node:http server, for one reason. `next
 * start` keeps an X-Forwarded-For the client sent and adds the socket's address only when there is none, so any
 * client could choose the address the sign-in throttle counts it under. Here X-Forwarded-For is rewritten on every
 * request to what this process can vouch for (lib/auth/client-address.ts): the socket's peer, after the chain that a
 * TRUSTED_PROXIES proxy passed on. It also answers the bank's notifications itself, once the index has started
 * (lib/index/direct-receiver.ts says why).
 */
const env = readEnvOrExit(consoleEnvSchema);
const app = next({ dev: false, hostname: env.HOST, port: env.PORT });
const handle = app.getRequestHandler();
await app.prepare();

createServer((request, response) => {
  request.headers["x-forwarded-for"] = forwardedFor(request.headers["x-forwarded-for"], request.socket.remoteAddress, env.TRUSTED_PROXIES);
  if (answeredDirectly(request, response)) return;
  void handle(request, response);
}).listen(env.PORT, env.HOST, () => console.log(`console listening on http://${env.HOST}:${env.PORT}`));
