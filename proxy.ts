import { NextResponse, type NextRequest } from "next/server";
import { requestPathHeader } from "@/lib/auth/request-path";
import { dataContentSecurityPolicy, pageContentSecurityPolicy, responseHeaders } from "@/lib/security-headers";

/**
 * Runs before every request except static assets (next.config.mjs gives those their headers): a per-request CSP nonce
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

export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", dataContentSecurityPolicy);
    return withResponseHeaders(request, response);
  }
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
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
