/**
 * The ONE decision on where the console may send a user after sign-in, sign-out or any `from=`: a path on the
 * console's own origin. The value is resolved against that origin the way a browser would resolve a `Location`, so
 * what is checked is what the browser will follow. Refused (answer "/"): anything not starting with "/", control
 * characters (the URL parser drops tab and newline, so `/\t/evil.example` would become `//evil.example`), backslashes
 * (browsers read them as "/"), another origin once resolved, a path that a browser would read as `//host`, and the
 * sign-in pages themselves (no loops).
 */
const placeholderOrigin = "http://console.invalid";
const refusedCharacters = /[\u0000-\u001f\u007f\\]/;
const loopPaths = ["/sign-in", "/api/auth"];

export function safeReturnPath(value: unknown, origin: string = placeholderOrigin): string {
  const path = sameOriginPath(value, origin);
  const pathname = path.split(/[?#]/, 1)[0]!;
  return loopPaths.some((loop) => pathname === loop || pathname.startsWith(`${loop}/`)) ? "/" : path;
}

function sameOriginPath(value: unknown, origin: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048 || refusedCharacters.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return "/";
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === new URL(origin).origin && !path.startsWith("//") ? path : "/";
}

/**
 * For Auth.js's `redirect` callback, which may hand over an absolute URL: the same rule, answered as an absolute URL on
 * the console's origin. The sign-in page is a valid target here (sign-out goes there).
 */
export function safeRedirectUrl(value: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let candidate = value;
  try {
    const absolute = new URL(value);
    if (absolute.origin !== base.origin) return new URL("/", base).toString();
    candidate = `${absolute.pathname}${absolute.search}${absolute.hash}`;
  } catch {
    // not absolute: a path, checked below
  }
  return new URL(sameOriginPath(candidate, base.origin), base).toString();
}
