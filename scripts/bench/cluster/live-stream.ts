import { sleep } from "./settings";

/**
 * A live page's stream through HAProxy, as components/live/live-provider.tsx keeps it: reopened from the last id
 * after an end "restarting" (at once) or a dropped connection (after 1 s); each gap from the end to the next `ready`
 * is recorded, with the objects its changes named (to tell which it missed), the changes it was sent twice (the same
 * version id again) and the resets (too far behind: a page reads everything again).
 */
export function liveStream(url: string, cookie: string) {
  const gaps: number[] = [];
  const objects = new Set<string>();
  const versions = new Set<string>();
  let shownTwice = 0;
  let resets = 0;
  let signedOut = 0;
  let lastId: string | undefined;
  let running = true;
  /** Since when the stream has been down (undefined while it is caught up). */
  let endedAt: number | undefined;
  /** Each connection's start (`after`), its `ready` id and how it ended, to read when a stream missed a change. */
  const history: string[] = [];
  let opened!: () => void;
  /** Resolved at the first `ready`: changes from then on are the stream's to receive (it starts from the newest). */
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const controller = new AbortController();
  const run = async () => {
    while (running) {
      let wait = 0;
      history.push(`${new Date().toISOString()} open after=${lastId ?? "-"}`);
      try {
        const answer = await fetch(`${url}/api/live${lastId ? `?after=${lastId}` : ""}`, { headers: { cookie }, signal: controller.signal });
        if (answer.status !== 200 || !answer.body) throw new Error(`HTTP ${answer.status}`);
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of answer.body) {
          buffer += decoder.decode(chunk, { stream: true });
          let split;
          while ((split = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, split);
            buffer = buffer.slice(split + 2);
            const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
            if (field("id")) lastId = field("id");
            if (field("event") === "change") {
              if (versions.has(lastId!)) shownTwice += 1;
              versions.add(lastId!);
              objects.add((JSON.parse(field("data")!) as { id: string }).id);
            }
            if (field("event") === "reset") resets += 1;
            if (field("event") === "ready" || field("event") === "reset" || field("event") === "end") {
              history.push(`${new Date().toISOString()} ${field("event")} ${field("id") ?? field("data")}`);
            }
            if (field("event") === "ready") opened();
            if (field("event") === "ready" && endedAt !== undefined) {
              gaps.push(Date.now() - endedAt);
              endedAt = undefined;
            }
            if (field("event") === "end" && !field("data")?.includes("restarting")) signedOut += 1;
          }
        }
      } catch (error) {
        history.push(`${new Date().toISOString()} failed: ${error instanceof Error ? error.message : error}`);
        wait = 1000;
      }
      if (!running) break;
      endedAt ??= Date.now();
      await sleep(wait);
    }
  };
  const done = run();
  return {
    gaps,
    objects,
    history,
    ready,
    shownTwice: () => shownTwice,
    /** How long the stream has been down without a `ready` (0 when it is up). */
    downForMs: () => (endedAt === undefined ? 0 : Date.now() - endedAt),
    resets: () => resets,
    signedOut: () => signedOut,
    async stop() {
      running = false;
      controller.abort();
      await done.catch(() => {});
    },
  };
}
