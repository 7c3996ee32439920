/**
 * Writes that arrive together go to the database together (group commit): while one batch is being written, the
 * next arrivals wait and go in the next batch, one statement each. Each caller's promise settles when its own entry
 * is written (or its batch failed), so a caller still answers only after its write. Used where many small writes of
 * one kind arrive at once: the console's inbox of bank notifications, the sandbox's record of delivered ones.
 */
export function groupedWriter<T>(writeBatch: (batch: T[]) => Promise<void>, maxBatch = 200): (entry: T) => Promise<void> {
  let waiting: Array<{ entry: T; settle: (error?: unknown) => void }> = [];
  let writing = false;

  async function writeWaiting(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        await writeBatch(batch.map((waiter) => waiter.entry));
        for (const waiter of batch) waiter.settle();
      } catch (error) {
        for (const waiter of batch) waiter.settle(error);
      }
    }
    writing = false;
  }

  return (entry) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ entry, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!writing) void writeWaiting();
    });
}
