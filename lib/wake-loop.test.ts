import { describe, expect, it } from "vitest";
import { createWakeLoop } from "./wake-loop";

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the workers' wake loop", () => {
  it("runs nothing until woken, then one round", async () => {
    let rounds = 0;
    const loop = createWakeLoop(async () => (rounds++, false), { pollMs: 60_000, onError: () => {} });
    await tick(5);
    expect(rounds).toBe(0);
    loop.wake();
    await tick(5);
    expect(rounds).toBe(1);
    await loop.stop();
  });

  it("never runs two rounds at once, and a wake during a round brings one more round after it", async () => {
    let inRound = 0;
    let most = 0;
    let rounds = 0;
    let release!: () => void;
    const loop = createWakeLoop(
      async () => {
        inRound++;
        most = Math.max(most, inRound);
        rounds++;
        if (rounds === 1) await new Promise<void>((resolve) => (release = resolve));
        inRound--;
        return false;
      },
      { pollMs: 60_000, onError: () => {} },
    );
    loop.wake();
    await tick();
    loop.wake();
    loop.wake();
    release();
    await tick(5);
    expect({ rounds, most }).toEqual({ rounds: 2, most: 1 });
    await loop.stop();
  });

  it("follows a round that reports more work at once, until the work runs out", async () => {
    let waiting = 5;
    const loop = createWakeLoop(async () => --waiting > 0, { pollMs: 60_000, onError: () => {} });
    loop.wake();
    await tick(5);
    expect(waiting).toBe(0);
    await loop.stop();
  });

  it("polls when nothing wakes it, and goes on after a round that threw", async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const loop = createWakeLoop(
      async () => {
        rounds++;
        if (rounds === 1) throw new Error("database went away");
        return false;
      },
      { pollMs: 10, onError: (error) => errors.push(error) },
    );
    loop.wake();
    await tick(60);
    expect(errors).toHaveLength(1);
    expect(rounds).toBeGreaterThanOrEqual(3);
    await loop.stop();
  });

  it("stops: no round after stop, and a stop with a grace waits for the round in progress at most that long", async () => {
    let rounds = 0;
    const loop = createWakeLoop(async () => (rounds++, await new Promise<void>(() => {}), false), { pollMs: 5, onError: () => {} });
    loop.wake();
    await tick();
    const started = Date.now();
    await loop.stop(30);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(loop.isStopped()).toBe(true);
    loop.wake();
    await tick(20);
    expect(rounds).toBe(1);
  });
});
