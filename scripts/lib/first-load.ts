import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The first-load JavaScript of a page: the build's scripts its HTML makes the browser load, as the e2e budget check
 * (e2e/first-load.spec.ts) and bench:pages count them. A script is loaded when the HTML names it in a `<script src>`
 * or preloads it (`<link rel="preload" as="script">`: the framework's and the page's chunks, which the page's
 * bootstrap runs after the first frame, patches/next+16.4.6.patch). `noModule` scripts are legacy polyfills a modern
 * browser never downloads: they are counted apart.
 */
export interface FirstLoadScripts {
  /** Paths under `/_next/static/`, each once, query strings cut. */
  modern: string[];
  noModule: string[];
}

const scriptTag = /<script\b[^>]*\bsrc="(\/_next\/static\/[^"?]+?\.js)[^"]*"[^>]*>/g;
const preloadTag = /<link\b[^>]*>/g;

export function firstLoadScripts(html: string): FirstLoadScripts {
  const modern = new Set<string>();
  const noModule = new Set<string>();
  for (const [tag, src] of html.matchAll(scriptTag)) (/\bnoModule\b/i.test(tag) ? noModule : modern).add(src!);
  for (const [tag] of html.matchAll(preloadTag)) {
    if (!/\brel="preload"/.test(tag) || !/\bas="script"/.test(tag)) continue;
    const href = /\bhref="(\/_next\/static\/[^"?]+?\.js)[^"]*"/.exec(tag)?.[1];
    if (href) modern.add(href);
  }
  return { modern: [...modern], noModule: [...noModule].filter((src) => !modern.has(src)) };
}

/** Gzip size in kB (1,024 bytes) of build scripts named by their `/_next/static/...` path, read from `staticDir`. */
export function gzipKb(scripts: string[], staticDir = ".next/static"): number {
  const bytes = scripts.reduce((sum, script) => sum + gzipSync(readFileSync(path.join(staticDir, script.slice("/_next/static/".length)))).length, 0);
  return bytes / 1024;
}
