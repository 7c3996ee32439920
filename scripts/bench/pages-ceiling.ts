/**
 * The ceiling of bench:pages (./pages.ts): a page's own first HTML, as the console served it in the same run, with its
 * scripts taken out, served static with the same build's CSS by a bare node:http server. What a browser needs to paint
 * that HTML with nothing else in the way (no server rendering, no JavaScript, no RSC payload), on this machine, now.
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * The HTML without anything that runs or loads script: `<script>` elements (the framework's chunks, the RSC payload's
 * `self.__next_f.push` scripts, the theme script) and the `<link>`s that preload script. Stylesheets, their preloads
 * and the markup stay as served. Streamed Suspense content waiting in a hidden `S:n` div is put in place of its
 * boundary, as React's inline `$RC` script would have done, so the ceiling shows what the console's page shows.
 */
export function withoutScripts(html: string): string {
  const stripped = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\bas="script"[^>]*>/gi, "")
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, "");
  return revealSegments(stripped);
}

/** Moves each streamed `<div hidden id="S:n">…</div>` into its boundary `<!--$?--><template id="B:n"></template>…<!--/$-->`. */
function revealSegments(html: string): string {
  let result = html;
  for (let found = result.match(/<div hidden="" id="S:([^"]+)">|<div hidden id="S:([^"]+)">/); found;) {
    const id = found[1] ?? found[2]!;
    const start = found.index!;
    const end = closingDiv(result, start);
    const content = result.slice(start + found[0].length, end - "</div>".length);
    result = result.slice(0, start) + result.slice(end);
    const boundary = new RegExp(`<!--\\$\\?--><template id="B:${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"></template>[\\s\\S]*?<!--/\\$-->`);
    result = boundary.test(result) ? result.replace(boundary, () => `<!--$-->${content}<!--/$-->`) : result;
    found = result.match(/<div hidden="" id="S:([^"]+)">|<div hidden id="S:([^"]+)">/);
  }
  return result;
}

/** The index just past the `</div>` closing the div opened at `start` (divs nest). */
function closingDiv(html: string, start: number): number {
  const tags = /<div\b|<\/div>/gi;
  tags.lastIndex = start + 1;
  let depth = 1;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[0].toLowerCase() === "</div>" ? -1 : 1;
    if (depth === 0) return tag.index + tag[0].length;
  }
  throw new Error("a streamed segment's div is never closed");
}

const types: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".woff2": "font/woff2",
  ".svg": "image/svg+xml",
};

/**
 * Serves `pages` (path → HTML, read at each request, so a page can be replaced between loads) with `no-store`, as the
 * console serves its pages, and `/_next/static/*` from the build's `staticDir` with the console's own long-lived
 * caching, so the warm-ups leave the CSS (and, for a page served with its scripts, the chunks) cached in both.
 */
export async function startCeiling(pages: Map<string, string>, staticDir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://ceiling").pathname;
    const page = pages.get(pathname);
    if (page !== undefined) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(page);
      return;
    }
    const file = path.join(staticDir, path.normalize(pathname.slice("/_next/static/".length)).replace(/^(\.\.[/\\])+/, ""));
    if (!pathname.startsWith("/_next/static/")) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => {
        const type = types[path.extname(file)] ?? "application/octet-stream";
        response.writeHead(200, { "content-type": type, "cache-control": "public, max-age=31536000, immutable" });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
