import type { Logger } from "pino";
import type { AuditEntry } from "@/lib/audit/trail";
import { csvStream } from "@/lib/csv/csv-stream";

/** lib/audit's `audited`: writes the record, runs `perform` only if that worked, then finalizes the record. */
export type Audited = <T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }) => Promise<T>;

export interface AuditedCsvExport {
  entry: AuditEntry;
  columns: readonly string[];
  /** Starts reading the rows; called only once the audit record is written. */
  open(): Promise<AsyncIterable<object>>;
  log: Logger;
}

/**
 * A CSV export under ONE audit record, the whole download being the audited work:
 * - the record is written (pending) before `open` runs; when that write fails, nothing is read and no byte is sent;
 * - an error from `open` (say the bank refusing the first page) finalizes the record `failed` and reaches the caller
 *   as an ordinary error answer, since no byte has been sent yet;
 * - once the stream is returned, the record is finalized with `{ rows }` when the last row is written, or `failed`
 *   with the reason when the rows stop midway or the reader goes away, before the reader sees the end. A failure
 *   errors the stream, so the download fails instead of ending short and looking complete.
 */
export function auditedCsvExport(audited: Audited, { entry, columns, open, log }: AuditedCsvExport): Promise<ReadableStream<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const finished: Promise<number> = audited(
      entry,
      async () => {
        const rows = await open();
        return new Promise<number>((ended, failed) => {
          const stream = csvStream(rows, {
            columns,
            settle: async (outcome) => {
              if (outcome.ok) ended(outcome.rows);
              else {
                log.warn({ err: outcome.error, action: entry.action, rows: outcome.rows }, "export stopped before its end");
                failed(outcome.error);
              }
              // The record is final before the reader sees the end (finalize errors are logged by `audited`).
              await finished.catch(() => {});
            },
          });
          resolve(stream);
        });
      },
      { after: (rows) => ({ rows }) },
    );
    // Before the stream exists this is the caller's error; once it exists, the stream itself carries any failure.
    finished.catch(reject);
  });
}
