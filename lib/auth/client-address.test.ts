import { describe, expect, it } from "vitest";
import { clientAddress, forwardedFor } from "./client-address";

describe("the client's address", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For the client sent", () => {
    const chain = forwardedFor("203.0.113.9, 198.51.100.1", "192.0.2.10", []);
    expect(chain).toBe("192.0.2.10");
    expect(clientAddress(chain, [])).toBe("192.0.2.10");
  });

  it("is read from X-Forwarded-For past a trusted proxy, and only past trusted ones", () => {
    const proxy = "10.0.0.5";
    expect(clientAddress(forwardedFor("203.0.113.9", proxy, [proxy]), [proxy])).toBe("203.0.113.9");
    // The client prepended a fake entry: the proxy appended the real one, which is what counts.
    expect(clientAddress(forwardedFor("1.1.1.1, 203.0.113.9", proxy, [proxy]), [proxy])).toBe("203.0.113.9");
    // A request that did not come through the proxy cannot claim to have.
    expect(clientAddress(forwardedFor("10.0.0.5", "192.0.2.10", [proxy]), [proxy])).toBe("192.0.2.10");
  });

  it("counts an IPv4 client of a dual-stack socket once, and answers unknown for garbage", () => {
    expect(clientAddress(forwardedFor(undefined, "::ffff:192.0.2.10", []), [])).toBe("192.0.2.10");
    expect(clientAddress("not an address", [])).toBe("unknown");
    expect(clientAddress(null, [])).toBe("unknown");
  });
});
