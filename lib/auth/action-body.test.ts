import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { maxActionBodyBytes, proxy } from "@/proxy";

// A server action (the sign-in form) posted with a body past Next.js's limit made Next.js throw: a 500. proxy.ts
// refuses it by its declared length first (docs/security.md, "Bounded input and resources").

const action = (bytes: number) =>
  new NextRequest("http://console.test/sign-in", {
    method: "POST",
    headers: { "next-action": "7f00aa", "content-type": "text/plain;charset=UTF-8", "content-length": String(bytes) },
    body: "x",
  });

describe("server action bodies", () => {
  it("refuses a body declared past the limit with 413 in the documented shape", async () => {
    const response = proxy(action(maxActionBodyBytes + 1));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: "payload_too_large", message: "A form submission is at most 1 MB." } });
  });

  it("refuses a body sent without a declared length (chunked) with 411, before Next.js reads it", async () => {
    // A streamed body with no Content-Length, as a crafted client sends it (Node needs `duplex` for a stream body).
    const init = {
      method: "POST",
      headers: { "next-action": "7f00aa", "content-type": "text/plain;charset=UTF-8", "transfer-encoding": "chunked" },
      body: new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode("x")), controller.close()) }),
      duplex: "half",
    };
    const chunked = new NextRequest("http://console.test/sign-in", init as ConstructorParameters<typeof NextRequest>[1]);
    const response = proxy(chunked);
    expect(response.status).toBe(411);
    expect(await response.json()).toEqual({ error: { code: "length_required", message: "A form submission must declare its Content-Length." } });
  });

  it("lets a body within the limit through to Next.js", () => {
    expect(proxy(action(1024)).headers.has("x-middleware-next")).toBe(true);
  });
});
