import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { isDraining, onShutdown } from "@/lib/health/shutdown";
import { drainServer, trackRequests } from "./drain";

// The console server's clean stop (scripts/console-server.ts), on a real node:http server: the answers a client sees
// while it drains, and how long it takes.

/** A server whose `/slow?ms=N` answers after N ms, `/never` never answers, anything else at once. */
async function startServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url!, "http://x");
    if (url.pathname === "/never") return void response.writeHead(200).write("started");
    const delay = url.pathname === "/slow" ? Number(url.searchParams.get("ms")) : 0;
    setTimeout(() => response.end(`done ${url.pathname}`), delay);
  });
  trackRequests(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A GET that reports what came back, or the error code (a refused connection: ECONNREFUSED). */
function get(url: string, agent?: import("node:http").Agent): Promise<{ status?: number; body?: string; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode, body, connection: response.headers.connection }));
      response.on("error", (error: NodeJS.ErrnoException) => resolve({ status: response.statusCode, body, error: error.code ?? error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe("draining the console's HTTP server", () => {
  it("finishes the requests in flight, refuses new connections and says draining from the first moment", async () => {
    const { server, url } = await startServer();
    const inFlight = get(`${url}/slow?ms=400`);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    const draining = drainServer(server, 5_000);
    expect(isDraining()).toBe(true);
    expect((await get(`${url}/`)).error).toBe("ECONNREFUSED");

    expect(await inFlight).toMatchObject({ status: 200, body: "done /slow" });
    expect(await draining).toEqual({ inFlight: 1, cut: 0 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("ends a kept-alive connection with the request it carries, so the client's next request opens a new one elsewhere", async () => {
    const { server, url } = await startServer();
    const agent = new (await import("node:http")).Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(`${url}/`, agent)).status).toBe(200);
    const inFlight = get(`${url}/slow?ms=300`, agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const draining = drainServer(server, 5_000);
    expect(await inFlight).toMatchObject({ status: 200, connection: "close" });
    expect(await draining).toEqual({ inFlight: 1, cut: 0 });
    agent.destroy();
  });

  it("runs every part's shutdown step with the grace, and cuts what is still open when the grace runs out", async () => {
    const { server, url } = await startServer();
    const given: number[] = [];
    onShutdown("test step", (graceMs) => void given.push(graceMs));
    const never = get(`${url}/never`);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    expect(await drainServer(server, 300)).toEqual({ inFlight: 1, cut: 1 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1_500);
    expect(given).toEqual([300]);
    expect(await never).toMatchObject({ status: 200, body: "started" });
  });
});
