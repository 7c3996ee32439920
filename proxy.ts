import { NextResponse, type NextRequest } from "next/server";
import { requestPathHeader } from "@/lib/auth/request-path";
import { pageContentSecurityPolicy, responseHeaders, setDataResponseHeaders } from "@/lib/security-headers";

/**
 * Runs before every request except static assets and well-formed `/api/bank` paths (see `config`): a per-request CSP nonce
 * for pages, a no-content CSP for route handlers, and on both `no-store` and (over https) HSTS. Sessions and permissions are checked by each page and route itself
 * (lib/auth/current-user.ts), against the database, not here.
 */
const ssoOrigin = (() => {
  try {
    return process.env.OIDC_ISSUER ? [new URL(process.env.OIDC_ISSUER).origin] : [];
  } catch {
    return [];
  }
})();

function withResponseHeaders(request: NextRequest, response: NextResponse): NextResponse {
  const headers = responseHeaders({ protocol: request.nextUrl.protocol, forwardedProto: request.headers.get("x-forwarded-proto") });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** A route handler's answer: data, never a document (lib/security-headers.ts). */
function asData(request: NextRequest, response: NextResponse): NextResponse {
  setDataResponseHeaders(response.headers, { url: request.nextUrl, forwardedProto: request.headers.get("x-forwarded-proto") });
  return response;
}

/** False when a path segment is not valid percent-encoding (`%`, `%E0%A4%A`): Next.js would fail on it with a 500. */
function pathDecodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** Next.js's limit on a server action's body (its default `bodySizeLimit`); past it Next.js throws, a 500. */
export const maxActionBodyBytes = 1024 * 1024;

/**
 * A server action's body is judged by its declared length, before Next.js reads it: past the limit Next.js throws (a
 * 500), and a body sent without a length (chunked) could only be judged by reading it. Browsers always declare the
 * length of a form or an action call, so only a crafted request is refused for that.
 */
function refusedActionBody(contentLength: string | null): { status: number; error: { code: string; message: string } } | null {
  if (contentLength === null || !/^\d+$/.test(contentLength)) {
    return { status: 411, error: { code: "length_required", message: "A form submission must declare its Content-Length." } };
  }
  if (Number(contentLength) > maxActionBodyBytes) {
    return { status: 413, error: { code: "payload_too_large", message: `A form submission is at most ${maxActionBodyBytes / (1024 * 1024)} MB.` } };
  }
  return null;
}

export function proxy(request: NextRequest) {
  if (!pathDecodes(request.nextUrl.pathname)) {
    const message = "The path is not valid percent-encoding (a % must be followed by two hex digits encoding UTF-8).";
    return asData(request, NextResponse.json({ error: { code: "bad_request", message } }, { status: 400 }));
  }
  if (request.method === "POST" && request.headers.has("next-action")) {
    const refused = refusedActionBody(request.headers.get("content-length"));
    if (refused) return asData(request, NextResponse.json({ error: refused.error }, { status: refused.status }));
  }
  if (request.nextUrl.pathname.startsWith("/api/")) return asData(request, NextResponse.next());
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = pageContentSecurityPolicy({ nonce, development: process.env.NODE_ENV === "development", extraFormActions: ssoOrigin });
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set(requestPathHeader, request.nextUrl.pathname + request.nextUrl.search);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return withResponseHeaders(request, response);
}

export const config = {
  // Not for static assets (next.config.mjs gives those their headers), and not for `/api/bank/...` unless its path
  // holds a `%` (which may be malformed, see pathDecodes): the proxy is the console's busiest path, and its wrapper
  // sets the same headers itself (lib/api/route.ts), so this hop's cost is saved there. Nor for `/api/live`: its
  // wrapper sets them too, and the Cache-Control set here would replace the stream's `no-transform`, so Next.js
  // would gzip the event stream. Nor for `/api/sandbox/snapshot`: a request through the proxy has its body buffered and
  // cut at 10 MB (proxyClientMaxBodySize), and a restored snapshot may be larger (its own cap: lib/sandbox-control).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/bank/[^%]*$|api/live$|api/sandbox/snapshot$).*)"],
};
