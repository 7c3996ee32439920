import { describe, expect, it } from "vitest";
import { groupedWriter } from "./grouped-writes";

/** A batch writer whose writes finish only when the test says so, recording each batch it was given. */
function controlledWrites() {
  const batches: string[][] = [];
  const finish: Array<(error?: Error) => void> = [];
  const write = (batch: string[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(batch);
      finish.push((error) => (error ? reject(error) : resolve()));
    });
  return { batches, finish, write };
}

const settled = (promise: Promise<unknown>) =>
  promise.then(
    () => "written",
    (error: Error) => `failed: ${error.message}`,
  );

describe("grouped writes", () => {
  it("writes the first entry at once and those arriving meanwhile together in the next batch", async () => {
    const writes = controlledWrites();
    const write = groupedWriter(writes.write);
    const first = write("a");
    const later = ["b", "c", "d"].map(write);
    expect(writes.batches).toEqual([["a"]]);
    writes.finish[0]!();
    await first;
    await Promise.resolve();
    expect(writes.batches).toEqual([["a"], ["b", "c", "d"]]);
    writes.finish[1]!();
    expect(await Promise.all(later.map(settled))).toEqual(["written", "written", "written"]);
  });

  it("settles an entry only when its own batch is written, and fails only the entries of a batch that failed", async () => {
    const writes = controlledWrites();
    const write = groupedWriter(writes.write);
    const first = settled(write("a"));
    const second = settled(write("b"));
    let firstSettled = false;
    void first.then(() => (firstSettled = true));
    await Promise.resolve();
    expect(firstSettled).toBe(false);
    writes.finish[0]!(new Error("disk full"));
    expect(await first).toBe("failed: disk full");
    await Promise.resolve();
    writes.finish[1]!();
    expect(await second).toBe("written");
  });

  it("splits a backlog into batches of at most the limit, in arrival order", async () => {
    const writes = controlledWrites();
    const write = groupedWriter(writes.write, 2);
    const all = ["a", "b", "c", "d", "e"].map(write);
    for (let batch = 0; batch < 3; batch++) {
      await Promise.resolve();
      writes.finish[batch]!();
      await all[Math.min(4, batch * 2)];
    }
    await Promise.all(all);
    expect(writes.batches).toEqual([["a"], ["b", "c"], ["d", "e"]]);
  });
});
