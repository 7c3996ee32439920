import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { firstLoadScripts, gzipKb } from "./first-load";

// What the first-load budget (e2e/first-load.spec.ts) and bench:pages count as a page's JavaScript.

const page = `<!DOCTYPE html><html><head>
<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>
<link rel="preload" as="script" fetchPriority="low" nonce="n" href="/_next/static/chunks/boot.js"/>
<link rel="preload" href="/_next/static/chunks/react-dom.js" as="script" nonce="n"/>
<link rel="preload" href="/_next/static/media/font.woff2" as="font"/>
<script src="/_next/static/chunks/page.js?dpl=1" async="" nonce="n"></script>
<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="n"></script>
</head><body><script nonce="n">self.__next_f.push([1,"x"])</script>
<script src="/_next/static/chunks/boot.js" nonce="n" async=""></script>
<script src="https://elsewhere.example/tracker.js"></script></body></html>`;

describe("the first-load scripts of a page", () => {
  it("counts the scripts it runs and the ones it preloads, each once, without query strings", () => {
    expect(firstLoadScripts(page).modern.sort()).toEqual([
      "/_next/static/chunks/boot.js",
      "/_next/static/chunks/page.js",
      "/_next/static/chunks/react-dom.js",
    ]);
  });

  it("keeps noModule polyfills apart, and leaves out inline scripts, other origins and preloads of anything but script", () => {
    const scripts = firstLoadScripts(page);
    expect(scripts.noModule).toEqual(["/_next/static/chunks/polyfills.js"]);
    expect([...scripts.modern, ...scripts.noModule].some((src) => /font|tracker|\.css/.test(src))).toBe(false);
  });

  it("sizes them as gzip in kB", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "first-load-"));
    mkdirSync(path.join(dir, "chunks"));
    const body = "globalThis.x=".repeat(5_000);
    writeFileSync(path.join(dir, "chunks", "one.js"), body);
    expect(gzipKb(["/_next/static/chunks/one.js"], dir)).toBeCloseTo(gzipSync(body).length / 1024, 6);
  });
});
