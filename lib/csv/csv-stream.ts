import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify, type Options } from "csv-stringify";

/**
 * The console's one CSV writer (csv-stringify's stream API), used by every export. Cells: RFC 4180 quoting, CRLF
 * line ends; a text cell starting with = + - @, a tab or a CR (after any blanks) gets a leading ' so a spreadsheet shows it rather than
 * running it as a formula (csv-stringify's `escape_formulas`; a JS number is left alone: -5 is a number, not a
 * formula); nested objects and arrays as JSON text; null and undefined as an empty cell; booleans as true/false.
 */
export const csvOptions = {
  record_delimiter: "windows",
  // Set explicitly: csv-stringify stops quoting a lone \n or \r once record_delimiter is given.
  quote_record_delimiter: true,
  escape_formulas: true,
  cast: {
    // escape_formulas looks at the first character only; a spreadsheet skips leading blanks, so " =1+1" runs too.
    string: (value) => (/^\s+[=+\-@]/.test(value) ? `'${value}` : value),
    boolean: (value) => String(value),
    object: (value) => JSON.stringify(value),
  },
} satisfies Options;

/** How a CSV stream ended: every row written, or stopped by an error (or the reader going away). */
export type CsvOutcome = { ok: true; rows: number } | { ok: false; rows: number; error: unknown };

export interface CsvStreamOptions {
  /** Header names, and the keys read from each row, in order. */
  columns: readonly string[];
  /**
   * Called once when the stream ends, and awaited before the reader sees the end: an export finalizes its audit
   * record here, so a download that looks complete has a finished audit record.
   */
  settle?(outcome: CsvOutcome): Promise<void> | void;
}

/**
 * `rows` as a CSV byte stream, header first. Pulled by its reader: a row is read from `rows` only when the bytes
 * before it have been taken (each side buffers at most csv-stringify's high-water marks), so memory stays the same
 * whatever the number of rows. An error from `rows` errors the stream (the download fails rather than looking
 * complete); a reader that cancels stops `rows`.
 */
export function csvStream(rows: AsyncIterable<object>, options: CsvStreamOptions): ReadableStream<Uint8Array> {
  let count = 0;
  async function* counted() {
    for await (const row of rows) {
      count += 1;
      yield row;
    }
  }
  const stringifier = stringify({ ...csvOptions, columns: [...options.columns], header: true });
  // Errors of either side reach the reader through `output`; the promise itself is only there to start the pipe.
  pipeline(Readable.from(counted()), stringifier).catch(() => {});
  const output = stringifier[Symbol.asyncIterator]() as AsyncIterator<Buffer>;

  let settled = false;
  const settle = async (outcome: CsvOutcome) => {
    if (settled) return;
    settled = true;
    await options.settle?.(outcome);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<Buffer>;
      try {
        next = await output.next();
      } catch (error) {
        await settle({ ok: false, rows: count, error });
        controller.error(error);
        return;
      }
      if (!next.done) {
        controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        return;
      }
      await settle({ ok: true, rows: count });
      controller.close();
    },
    async cancel() {
      // Destroying the stringifier ends the pipeline, which stops `rows` (no further bank page is read).
      stringifier.destroy();
      await settle({ ok: false, rows: count, error: new Error(`the download was stopped by its reader after ${count} rows`) });
    },
  });
}

/** The headers of a CSV download named `<stem>-<YYYY-MM-DD>.csv`, never cached (it may hold personal data). */
export function csvResponse(body: ReadableStream<Uint8Array>, stem: string, now = new Date()): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${stem}-${now.toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
}
