import { describe, expect, it } from "vitest";
import { createRecordCounter } from "./record-counter";
import { csvStream } from "./csv-stream";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("counting CSV records as they arrive", () => {
  it("counts records, not the line breaks inside quoted cells, whatever the chunk boundaries", () => {
    const text = 'id,note\r\n1,"two\r\nlines"\r\n2,"say ""hi"", then\nbye"\r\n3,é\r\n';
    for (let size = 1; size <= text.length; size++) {
      const counter = createRecordCounter();
      const encoded = bytes(text);
      let count = 0;
      for (let start = 0; start < encoded.length; start += size) count = counter.push(encoded.subarray(start, start + size));
      expect(count, `chunks of ${size} bytes`).toBe(4);
    }
  });

  it("agrees with the rows the CSV writer wrote", async () => {
    async function* rows() {
      for (let i = 0; i < 300; i++) yield { id: i, note: i % 3 === 0 ? `multi\r\nline "${i}"` : `=${i}` };
    }
    const counter = createRecordCounter();
    let count = 0;
    const reader = csvStream(rows(), { columns: ["id", "note"] }).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) count = counter.push(chunk.value);
    expect(count - 1).toBe(300);
  });
});
