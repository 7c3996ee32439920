/**
 * The console's Content-Security-Policy. Pages get a fresh nonce per request (proxy.ts), which Next.js puts on its own
 * scripts; `strict-dynamic` lets those load their chunks (the page's bootstrap inserts the preloaded ones after the
 * first frame, without a nonce: patches/next+16.4.6.patch). No `unsafe-eval` outside development (React needs it only
 * there for error overlays). No `upgrade-insecure-requests`: the console is served over plain http on 127.0.0.1.
 */
export function pageContentSecurityPolicy(options: { nonce: string; development: boolean; extraFormActions?: string[] }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    // React and the UI set inline style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${(options.extraFormActions ?? []).map((origin) => ` ${origin}`).join("")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For responses that are data, not documents (route handlers, static assets): nothing may run or frame them. */
export const dataContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers of every data answer (route handlers): nothing may run or frame it, and it is never stored. Set by
 * proxy.ts, and by the API wrapper (lib/api/route.ts) for `/api/bank`, which proxy.ts skips to save its cost on the
 * console's busiest path.
 */
export function setDataResponseHeaders(headers: Headers, request: { url: { protocol: string }; forwardedProto: string | null }): void {
  headers.set("Content-Security-Policy", dataContentSecurityPolicy);
  const keepsItsForm = /\bno-transform\b/.test(headers.get("Cache-Control") ?? "");
  for (const [name, value] of Object.entries(responseHeaders({ protocol: request.url.protocol, forwardedProto: request.forwardedProto }))) {
    headers.set(name, value);
  }
  // A handler's no-transform (an event stream: nothing may compress or buffer it) is kept.
  if (keepsItsForm) headers.set("Cache-Control", `${headers.get("Cache-Control")}, no-transform`);
}

/**
 * Headers proxy.ts puts on every page and route-handler answer (static assets excluded). `no-store`: every page and
 * API answer may carry bank data or personal data, which must not stay in a browser's or a shared proxy's cache.
 * HSTS only when the request arrived over https (directly or as the reverse proxy reports it): over plain http a
 * browser ignores it, and the console's default is plain http on 127.0.0.1.
 */
export function responseHeaders(request: { protocol: string; forwardedProto: string | null; includeSubDomains?: boolean }): Record<string, string> {
  const https = request.protocol === "https:" || request.forwardedProto?.split(",")[0]?.trim() === "https";
  const includeSubDomains = request.includeSubDomains ?? hstsIncludesSubDomains();
  return {
    "Cache-Control": "no-store",
    ...(https ? { "Strict-Transport-Security": includeSubDomains ? "max-age=31536000; includeSubDomains" : "max-age=31536000" } : {}),
  };
}

/**
 * HSTS_INCLUDE_SUBDOMAINS=on (validated with the other settings in lib/env/schema.ts): HSTS covers every subdomain of
 * the console's host too. Read from the process environment here, since proxy.ts runs before any setting is loaded.
 */
function hstsIncludesSubDomains(): boolean {
  return process.env.HSTS_INCLUDE_SUBDOMAINS === "on";
}
