/**
 * The loop behind the console's background workers (the index worker, the bulk runner): a round runs when woken or
 * every `pollMs`, never two at once. A wake that arrives while a round runs is not lost: another round follows at once.
 * A round that reports more work waiting is followed at once too, so a backlog drains without waiting for the poll.
 */
export interface WakeLoop {
  /** Run a round now, or right after the one in progress. */
  wake(): void;
  /** True once `stop` was called: a round checks it to end early. */
  isStopped(): boolean;
  /** No round starts after this; waits for the one in progress, at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

interface WakeLoopOptions {
  /** Looks for work at least this often even when nothing wakes it. */
  pollMs?: number;
  /** Told of a round that threw; the loop goes on at its next wake or poll. */
  onError(error: unknown): void;
}

/** `round` does one batch of work and resolves true when more is likely waiting. The loop starts at its first wake. */
export function createWakeLoop(round: () => Promise<boolean>, options: WakeLoopOptions): WakeLoop {
  let stopped = false;
  let wakeAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function rounds(): Promise<void> {
    do {
      wakeAgain = false;
      if (await round()) wakeAgain = true;
    } while (wakeAgain && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      wakeAgain = true;
      return;
    }
    clearTimeout(timer);
    running = rounds()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(wake, wakeAgain ? 0 : (options.pollMs ?? 1000));
      });
  }

  return {
    wake,
    isStopped: () => stopped,
    async stop(graceMs = Infinity) {
      stopped = true;
      clearTimeout(timer);
      if (Number.isFinite(graceMs)) await Promise.race([running, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      else await running;
    },
  };
}
