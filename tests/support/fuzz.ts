import fc from "fast-check";
import { expect } from "vitest";
import { operations, pathParameters } from "@/lib/contract";

/**
 * Random and malformed HTTP requests against the API's routes, for the property-based tests of the sandbox bank
 * (sandbox/routes/fuzz.test.ts) and the console's proxy (lib/api/fuzz.test.ts), and of the index's inputs
 * (lib/search/index-fuzz.test.ts): paths from the contract with ids replaced by anything (NUL, lone surrogates, broken
 * percent-encoding, traversal), query names and values (dates, amounts, cursors, control characters), bodies (valid JSON, broken JSON, deep nesting, huge strings, prototype keys).
 */
export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent, percent-encoding included (possibly malformed). */
  target: string;
  body?: string;
  contentType?: string;
}

const nasty = [
  "%",
  "%00",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "..",
  "%2e%2e",
  "%2F",
  "a%00b",
  "%ZZ",
  "%uD800",
  "\u0000",
  "\uD800",
  "\uDC00x",
  "__proto__",
  "constructor",
  "",
];
const indexCursor = (value: unknown) => `ix.${Buffer.from(JSON.stringify(value)).toString("base64url")}`;

/**
 * Values at the edges of what PostgreSQL reads: dates and times at the ends of its range (a day after 9999-12-31 is
 * written +010000 by JavaScript, year 0000 is no year of its calendar), and index-list cursors
 * (`ix.<base64url of [created, id]>`) holding a date it does not read, year 0000, a NUL in the id.
 */
export const fuzzEdges = [
  "0000-01-01",
  "0001-01-01",
  "9999-12-31",
  "9999-12-31T23:59",
  "0000-01-01T00:00:00Z",
  indexCursor(["2020", "x"]),
  indexCursor(["0000-01-01T00:00:00Z", "x"]),
  indexCursor(["2026-11-23T10:00:00.000000Z", "ach_\u0000"]),
];
const printable = fc.string({ unit: fc.constantFrom(..."abcz019_-.~!$&'()*+,;=:@%/?#".split("")), maxLength: 20 });

/** A path segment or query value: nasty fixed strings, encoded arbitrary Unicode (lone surrogates too), or raw characters. */
export const fuzzComponent = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ unit: "binary", maxLength: 30 }).map((value) => {
    try {
      return encodeURIComponent(value);
    } catch {
      // encodeURIComponent refuses lone surrogates: send them as their (invalid) UTF-8 bytes instead
      return [...value].map((char) => `%${(char.charCodeAt(0) & 0xff).toString(16).padStart(2, "0")}`).join("");
    }
  }),
  printable,
  fc.constantFrom(
    ...fuzzEdges,
    "2024-02-30",
    "2026-11-23",
    "9999-99-99",
    "12.50",
    "-1",
    "0",
    "1e309",
    "NaN",
    "1001",
    "0000001",
    "000000000000001",
    "0210000000000071",
  ),
);

const knownQueryNames = [...new Set(operations.flatMap((operation) => Object.keys(operation.query?.shape ?? {})))];
const queryName = fc.oneof(fc.constantFrom(...knownQueryNames, "reveal", "__proto__"), fuzzComponent);

const deep = (depth: number, open: string, close: string) => `{"userdata":{"a":${open.repeat(depth)}${close.repeat(depth)}}}`;
const body = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ userdata: value })),
  fc.constantFrom(
    "{not json",
    "",
    "null",
    "[]",
    '"just a string"',
    '{"userdata":{"a":"\\u0000"}}',
    '{"userdata":{"\\u0000":1}}',
    '{"userdata":{"a":"\\ud800"}}',
    '{"__proto__":{"admin":true},"userdata":{}}',
    '{"constructor":{"prototype":{"x":1}},"userdata":{"__proto__":{"y":2}}}',
    '{"url":"http://127.0.0.1:9/a\\u0000","event":"ach.update"}',
    '{"type":"card_provisioning","simulation":{"card_id":"\\u0000"}}',
    '{"dpop":"\\u0000"}',
    deep(30_000, "[", "]"),
    deep(40, '{"a":', "}"),
    `{"userdata":{"a":"${"x".repeat(70_000)}"}}`,
  ),
);

export const fuzzRequests = fc
  .record(
    {
      method: fc.constantFrom("GET", "GET", "POST", "PATCH", "DELETE", "PUT"),
      path: fc.constantFrom(...operations.map((operation) => operation.path), "/", "/nope"),
      ids: fc.array(fuzzComponent, { minLength: 2, maxLength: 2 }),
      tail: fc.constantFrom("", "", "/", "/extra", "//", "/%"),
      query: fc.array(fc.tuple(queryName, fuzzComponent), { maxLength: 4 }),
      body,
      contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""),
    },
    { requiredKeys: ["method", "path", "ids", "tail", "query", "contentType"] },
  )
  .map(({ method, path, ids, tail, query, body: text, contentType }): FuzzRequest => {
    let index = 0;
    const filled = pathParameters(path).reduce((result, name) => result.replace(`{${name}}`, () => ids[index++ % ids.length]!), path);
    const search = query.map(([name, value]) => `${name}=${value}`).join("&");
    const hasBody = method !== "GET" && text !== undefined;
    return { method, target: `${filled}${tail}${search ? `?${search}` : ""}`, ...(hasBody && { body: text, contentType }) };
  });

/**
 * The fast-check runs of one fuzz test: a fixed seed (the same cases every run) and a random one, printed by
 * fast-check on failure; `FUZZ_SEED=<seed>` replays a printed one in place of the random seed.
 */
export const fuzzSeeds = [
  { name: "fixed seed 20261123", seed: 20261123 },
  process.env.FUZZ_SEED
    ? { name: `seed ${process.env.FUZZ_SEED} (FUZZ_SEED)`, seed: Number(process.env.FUZZ_SEED) }
    : { name: "random seed", seed: Date.now() ^ (Math.random() * 2 ** 31) },
];

/** Bounded in time: at most `runs` cases, stopping early (not failing) after `seconds`. */
export function fuzzParameters<T extends unknown[]>(seed: number, runs: number, seconds: number): fc.Parameters<T> {
  return { seed, numRuns: runs, interruptAfterTimeLimit: seconds * 1000, markInterruptAsFailure: false, endOnFailure: true };
}

/** Sends `request` raw to `baseUrl` (the path is not re-encoded), with a timeout that counts as a failure (a hang). */
export async function send(baseUrl: string, request: FuzzRequest, headers: Record<string, string>, timeoutMs = 10_000) {
  const init: RequestInit = { method: request.method, headers: { ...headers }, signal: AbortSignal.timeout(timeoutMs) };
  if (request.body !== undefined) {
    init.body = request.body;
    if (request.contentType) (init.headers as Record<string, string>)["content-type"] = request.contentType;
  }
  const response = await fetch(`${baseUrl}${request.target}`, init);
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text };
}

/** Never a 5xx; every refusal carries the documented error shape (`shape` checks the parsed body). */
export function expectDocumentedAnswer(answer: { status: number; text: string }, shape: (body: unknown) => boolean) {
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  if (answer.status >= 400) {
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(answer.text)), `not JSON: ${answer.text.slice(0, 200)}`).not.toThrow();
    expect(shape(parsed), `not the error shape: ${answer.text.slice(0, 200)}`).toBe(true);
  }
}
