import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// A doc or comment that names a file of this repository names one that exists: a reader following it never lands on
// nothing. Paths are recognised by their first folder and their ending; a pattern with `*` names several and is
// skipped. Configuration files (.mjs) are left out: they may name files that builds generate.
const citedPath = /(?<![\w@/.-])((?:lib|app|components|scripts|sandbox|e2e|docs|tests|drizzle)\/[\w\-./[\]()]+?\.(?:tsx?|md|sql|json))(?![\w/*])/g;

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "*.md", "*.ts", "*.tsx"], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
}

describe("paths cited in docs and code", () => {
  it("all exist", () => {
    const missing = trackedFiles().flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(citedPath)]
        .map((match) => match[1]!)
        .filter((path) => !existsSync(path))
        .map((path) => `${file}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("are recognised where a doc or comment writes them", () => {
    const found = (text: string) => [...text.matchAll(citedPath)].map((match) => match[1]);
    expect(found("see `lib/index/receiver.ts`, (app/(console)/settings/page.tsx) and docs/bank-index.md.")).toEqual([
      "lib/index/receiver.ts",
      "app/(console)/settings/page.tsx",
      "docs/bank-index.md",
    ]);
    expect(found('import x from "@/lib/index/receiver"; components/live/*.tsx ../shared/spec/banking-api.md')).toEqual([]);
  });
});
