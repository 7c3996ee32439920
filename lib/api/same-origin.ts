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
 * Whether a browser says another site's page started this request (Fetch Metadata): `Sec-Fetch-Site` is cross-site, or
 * same-site from a sibling host. `same-origin` (the console's own pages), `none` (typed or bookmarked) and a request
 * without the header (not a browser: scripts, the e2e client) are not.
 */
export function startedByAnotherSite(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none";
}

/**
 * Reads through the console's API (lib/api/route.ts) may have a side effect another site's page must not start in the
 * signed-in person's name: an audited search, a download, a masked filter. Refused before anything is read or audited.
 */
export function checkNotCrossSite(request: Request): void {
  if (startedByAnotherSite(request.headers)) {
    const site = request.headers.get("sec-fetch-site");
    throw new ConsoleError(403, "cross_site", `The console's API answers only the console's own pages (Sec-Fetch-Site is ${site}).`);
  }
}
