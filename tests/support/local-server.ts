import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface LocalServer {
  url: string;
  /** Every request the server received, in order. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) for client tests: `respond` sees each request (with its body read) and the
 * index of the request, and answers, stalls or drops the connection as the test needs.
 */
export async function startLocalServer(respond: (request: ReceivedRequest, response: ServerResponse, index: number) => void): Promise<LocalServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString() };
      received.push(entry);
      respond(entry, response, received.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        // Stalled requests hold their sockets open; end them so close() can finish.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function answerJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** Ends the TCP connection without any HTTP answer, as a crashed proxy or bank would. */
export function dropConnection(response: ServerResponse): void {
  response.socket?.destroy();
}
