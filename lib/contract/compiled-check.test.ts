import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bankObjects } from "@/tests/support/sample-objects";
import { fuzzParameters, fuzzSeeds } from "@/tests/support/fuzz";
import { compileCheck } from "./compiled-check";
import { operations } from "./operations";
import { networkTransfer, personApplication, webhook } from "./resources";
import { listResponse } from "./requests";

const answerSchemas = operations.flatMap((operation) =>
  operation.response.schema ? [{ name: operation.operationId, schema: operation.response.schema }] : [],
);

/** Valid answers to start mutating from: single objects and pages of them. */
const validAnswers = [
  { schema: personApplication, value: bankObjects.personApplication },
  { schema: networkTransfer, value: bankObjects.networkTransfer },
  { schema: webhook, value: bankObjects.webhook },
  {
    schema: listResponse(personApplication),
    value: {
      data: [bankObjects.personApplication, bankObjects.personApplication],
      page_next: "https://bank.example/apply/person_application?page_cursor=c2",
    },
  },
];

/** Values that sit on the edges of what the contract's checks tell apart. */
const edgeValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom("2024-02-29", "2023-02-29", "2023-02-30", "2026-13-01", "0000-01-01", "2026-11-20T10:00:00Z", "2026-11-20T10:00:00.5Z"),
  fc.constantFrom("12.50", "12.5", "-1.00", "apsn_ok", "apsn_", "nt_x", "US", "USA", "\u{1F600}", "a\u0000b", "\uD800"),
  // Astral characters: one code point, two UTF-16 units; around every length limit of the contract.
  fc.integer({ min: 0, max: 40 }).map((count) => "\u{1F600}".repeat(count)),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(null, true, 0, 1.5, [], {}),
);

type Json = Record<string, unknown> | unknown[];

/** Every path to a field or array item in `value`, so a mutation can reach nested objects too. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])]);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
  }
  return [];
}

type Mutation =
  { kind: "set"; path: number; value: unknown } | { kind: "delete"; path: number } | { kind: "add"; path: number; key: string; value: unknown };

/** A JSON copy: answers arrive through JSON.parse, and a generated value (some are shared constants) is never changed in place. */
const jsonCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function mutate(original: unknown, mutations: Mutation[]): unknown {
  const copy = jsonCopy(original) as Json;
  for (const mutation of mutations) {
    const paths = pathsOf(copy);
    if (paths.length === 0) break;
    const path = paths[mutation.path % paths.length]!;
    const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string | number, Json>)[key]!, copy) as Record<
      string | number,
      unknown
    >;
    const last = path[path.length - 1]!;
    if (mutation.kind === "set") parent[last] = jsonCopy(mutation.value);
    else if (mutation.kind === "delete") {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else {
      const target = parent[last];
      // Defined, not assigned: a key named __proto__ stays a key, as JSON.parse makes it.
      if (target && typeof target === "object" && !Array.isArray(target)) {
        Object.defineProperty(target, mutation.key, { value: jsonCopy(mutation.value), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), path: fc.nat(), value: edgeValue }),
  fc.record({ kind: fc.constant("delete" as const), path: fc.nat() }),
  fc.record({
    kind: fc.constant("add" as const),
    path: fc.nat(),
    key: fc.constantFrom("extra", "__proto__", "constructor", "toString"),
    value: edgeValue,
  }),
);

describe("a compiled check answers as zod does", () => {
  it("compiles for every answer of the contract, and accepts the valid samples", () => {
    for (const { schema } of answerSchemas) expect(() => compileCheck(schema)).not.toThrow();
    for (const { schema, value } of validAnswers) expect(compileCheck(schema)(value)).toBe(true);
  });

  it("refuses what only a zod refinement refuses, and counts lengths in code points as zod does", () => {
    const check = compileCheck(personApplication);
    expect(check({ ...bankObjects.personApplication, date_of_birth: "2023-02-30" })).toBe(false);
    expect(check({ ...bankObjects.personApplication, date_of_birth: "2024-02-29" })).toBe(true);
    // 30 emoji are 30 code points (60 UTF-16 units): within identification_number's 30, and 31 are not.
    expect(check({ ...bankObjects.personApplication, identification_number: "\u{1F600}".repeat(30) })).toBe(true);
    expect(check({ ...bankObjects.personApplication, identification_number: "\u{1F600}".repeat(31) })).toBe(false);
  });

  describe.each(fuzzSeeds)("on mutated answers ($name)", ({ seed }) => {
    it("gives zod's verdict for every mutation of a valid answer", () => {
      const checks = validAnswers.map(({ schema, value }) => ({ schema, value, check: compileCheck(schema) }));
      fc.assert(
        fc.property(fc.nat({ max: checks.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), (index, mutations) => {
          const { schema, value, check } = checks[index]!;
          const mutated = mutate(value, mutations);
          expect(check(mutated)).toBe(schema.safeParse(mutated).success);
        }),
        fuzzParameters(seed, 3_000, 10),
      );
    });

    it("gives zod's verdict on random JSON for every answer schema", () => {
      const checks = answerSchemas.map(({ schema }) => ({ schema, check: compileCheck(schema) }));
      fc.assert(
        fc.property(fc.nat({ max: checks.length - 1 }), fc.jsonValue({ maxDepth: 4 }), (index, value) => {
          const { schema, check } = checks[index]!;
          expect(check(value)).toBe(schema.safeParse(value).success);
        }),
        fuzzParameters(seed, 2_000, 5),
      );
    });
  });
});
