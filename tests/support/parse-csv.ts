/**
 * Reads CSV back into rows of cells (RFC 4180: quoted cells may hold commas, doubled quotes and line breaks), so tests
 * compare an export's cells with the bank's objects. Tests only: the console writes CSV with csv-stringify (lib/csv).
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += char;
    } else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      rows.push([...row, cell]);
      row = [];
      cell = "";
      i++;
    } else {
      cell += char;
    }
  }
  if (quoted) throw new Error("CSV ends inside a quoted cell");
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The rows of a CSV with a header as objects keyed by the header's names. */
export function csvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const [header = [], ...rows] = parseCsv(text);
  return { header, records: rows.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ""]))) };
}
