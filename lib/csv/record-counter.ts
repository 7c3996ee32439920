/**
 * Counts the records of a CSV as its bytes arrive, for progress in the browser: a record ends at a line feed outside
 * quotes (a quoted cell may hold line breaks). Works on raw bytes, so a chunk may end anywhere, even inside a
 * multi-byte character: UTF-8 never uses the bytes of `"` and `\n` inside one. The header counts as a record.
 */
export function createRecordCounter() {
  let records = 0;
  let quoted = false;
  return {
    push(chunk: Uint8Array): number {
      for (const byte of chunk) {
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) records += 1;
      }
      return records;
    },
  };
}
