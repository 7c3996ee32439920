import { describe, expect, it } from "vitest";
import { csvResponse, csvStream, type CsvOutcome } from "./csv-stream";

async function* from<T>(rows: T[]) {
  yield* rows;
}

const csvOf = (rows: object[], columns = ["value"]) => new Response(csvStream(from(rows), { columns })).text();
const cell = async (value: unknown) => (await csvOf([{ value }])).split("\r\n")[1];

describe("the CSV writer", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ["+1 555 0100", "'+1 555 0100"],
    ["-12.50", "'-12.50"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ["\r=1", `"'\r=1"`],
    ["a=1", "a=1"],
    [" =1+1", "' =1+1"],
    ["  +1 555 0100", "'  +1 555 0100"],
    ["\u00a0-5", "'\u00a0-5"],
    [" @SUM(A1)", "' @SUM(A1)"],
    [" plain", " plain"],
    ["12.50", "12.50"],
  ])("writes the text %j as %j (formula characters defused, quoting per RFC 4180)", async (value, expected) => {
    expect(await cell(value)).toBe(expected);
  });

  it.each([
    ["a comma", "Smith, Ann", `"Smith, Ann"`],
    ["a quote", `say "hi"`, `"say ""hi"""`],
    ["a line feed", "line 1\nline 2", `"line 1\nline 2"`],
    ["a carriage return", "a\rb", `"a\rb"`],
  ])("quotes a cell with %s", async (_name, value, expected) => {
    const csv = await csvOf([{ value, next: "x" }], ["value", "next"]);
    expect(csv).toBe(`value,next\r\n${expected},x\r\n`);
  });

  it("writes nested objects and arrays as JSON text, null and missing as empty, booleans and numbers as text", async () => {
    const csv = await csvOf(
      [{ address: { city: "Albany", line: "1 Main St, Apt 2" }, ids: ["a", "b"], none: null, yes: true, no: false, count: -5 }],
      ["address", "ids", "none", "missing", "yes", "no", "count"],
    );
    expect(csv).toBe(
      `address,ids,none,missing,yes,no,count\r\n"{""city"":""Albany"",""line"":""1 Main St, Apt 2""}","[""a"",""b""]",,,true,false,-5\r\n`,
    );
  });

  it("writes the columns in the order given, whatever the order of a row's keys, and ignores other keys", async () => {
    expect(await csvOf([{ b: 2, extra: "x", a: 1 }], ["a", "b"])).toBe("a,b\r\n1,2\r\n");
  });

  it("writes the header alone for no rows, and reports the row count when done", async () => {
    const outcomes: CsvOutcome[] = [];
    const empty = await new Response(csvStream(from([]), { columns: ["id"], settle: (outcome) => void outcomes.push(outcome) })).text();
    expect(empty).toBe("id\r\n");
    await new Response(csvStream(from([{ id: 1 }, { id: 2 }]), { columns: ["id"], settle: (outcome) => void outcomes.push(outcome) })).text();
    expect(outcomes).toEqual([
      { ok: true, rows: 0 },
      { ok: true, rows: 2 },
    ]);
  });

  it("errors the stream, after settling, when the rows fail midway: a failed export never reads as complete", async () => {
    async function* failing() {
      yield { id: 1 };
      throw new Error("bank went away");
    }
    const events: string[] = [];
    const stream = csvStream(failing(), {
      columns: ["id"],
      settle: (outcome) => void events.push(outcome.ok ? "ok" : `failed after ${outcome.rows}: ${(outcome.error as Error).message}`),
    });
    await expect(new Response(stream).text()).rejects.toThrow("bank went away");
    expect(events).toEqual(["failed after 1: bank went away"]);
  });

  it("reads rows only as the reader takes bytes, and stops reading them when the reader cancels", async () => {
    let produced = 0;
    let finished = false;
    async function* endless() {
      try {
        for (;;) {
          produced += 1;
          yield { id: produced, text: "x".repeat(100) };
        }
      } finally {
        finished = true;
      }
    }
    const outcomes: CsvOutcome[] = [];
    const stream = csvStream(endless(), { columns: ["id", "text"], settle: (outcome) => void outcomes.push(outcome) });
    const reader = stream.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Bounded by the streams' high-water marks (16 rows in, 16 KB out), not by how many rows exist.
    expect(produced).toBeLessThan(1000);
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(true);
    expect(outcomes).toEqual([{ ok: false, rows: expect.any(Number), error: expect.any(Error) }]);
  });
});

describe("a CSV download", () => {
  it("is text/csv, an attachment named after its content and date, and never cached", () => {
    const response = csvResponse(new ReadableStream(), "ach", new Date("2026-11-23T09:00:00Z"));
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="ach-2026-11-23.csv"');
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
