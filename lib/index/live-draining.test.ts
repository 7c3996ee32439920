import { describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { startDraining } from "@/lib/health/shutdown";
import { createLogger } from "@/lib/log";
import { liveStreamRoute } from "./live-feed-stream";

// A console process that is stopping (scripts/console-server.ts) has ended its open live streams; one asked for after
// that, on a connection the load balancer still held, is refused at once rather than held open until the grace ends.
// In a file of its own: the draining state lasts as long as the process.

describe("a live stream asked of a stopping console process", () => {
  it("is refused with 503 restarting before anything is subscribed, so the load balancer sends it elsewhere", async () => {
    const viewer = { id: "staff_1", email: "viewer@bank.example", name: "Viewer", role: "viewer" as const, locked: false };
    let subscribed = false;
    const route = createApiRoute({ currentUser: async () => viewer, log: createLogger({ level: "silent" }) })(
      liveStreamRoute(
        async () => {
          subscribed = true;
          throw new Error("a stopping process subscribes to nothing");
        },
        { token: async () => ({ sub: viewer.id, sid: "session_1" }), check: async () => ({ user: viewer }), onAccessChange: () => () => {} },
      ),
    );
    startDraining();

    const response = await route(new Request("http://console.test/api/live"));

    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("restarting");
    expect(subscribed).toBe(false);
  });
});
