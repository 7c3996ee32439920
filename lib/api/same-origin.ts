import { ConsoleError } from "./errors";

/**
 * Mutations must come from the console's own pages: the browser's `Origin` must name the host the request was sent
 * to. A cross-site form or script carries the attacker's origin; a request without `Origin` (not a browser page of
 * ours) is refused too, since every browser sends it on POST, PATCH and DELETE.
 */
export function checkSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string | undefined;
  try {
    originHost = origin ? new URL(origin).host : undefined;
  } catch {
    originHost = undefined;
  }
  if (!originHost || originHost !== host) {
    throw new ConsoleError(403, "cross_origin", "Changes are only accepted from the console's own pages (the Origin header does not match).");
  }
}

/**
 * For reads with a side effect a page of another site must not start (an export: an audited download): a browser
 * request started by another site says so in `Sec-Fetch-Site` (cross-site, or same-site from a sibling host), and is
 * refused. `same-origin` (the console's own pages), `none` (typed or bookmarked) and a request without the header
 * (not a browser: scripts, the e2e client) pass.
 */
export function checkNotCrossSite(request: Request): void {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    throw new ConsoleError(403, "cross_site", "Exports start only from the console's own pages (Sec-Fetch-Site is " + site + ").");
  }
}
