/**
 * A same-site path to return to after sign-in; anything else (absolute URLs, `//host`, `/\host`, control characters,
 * which a Location header cannot carry) becomes "/".
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/";
  if (value.startsWith("/sign-in") || value.startsWith("/api/auth")) return "/";
  return value;
}
