import { Writable } from "node:stream";
import { createLogger, type Logger } from "@/lib/log";

/** A logger at `level` whose JSON lines a test reads back, parsed, in the order they were written. */
export function capturedLog(level = "info"): { log: Logger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  });
  return { log: createLogger({ level, destination }), lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
