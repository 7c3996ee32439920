import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { consoleEnvSchema, sandboxEnvSchema } from "./schema";

// docs/deploying.md lists every setting the console and the sandbox bank read: a variable added to the schema and
// missing from its tables fails here.

const guide = readFileSync(path.join(import.meta.dirname, "../../docs/deploying.md"), "utf8");
const documented = new Set([...guide.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]));

describe("docs/deploying.md", () => {
  it.each([
    ["the console", consoleEnvSchema],
    ["the sandbox bank", sandboxEnvSchema],
  ])("has a table row for every variable %s reads", (_, schema) => {
    expect(Object.keys(schema.shape).filter((name) => !documented.has(name))).toEqual([]);
  });
});
