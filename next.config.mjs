/** Headers on every response, static assets included; the Content-Security-Policy of pages and routes is set in proxy.ts. */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Server-only packages that must not be bundled: native/wasm drivers are loaded from node_modules at run time.
  serverExternalPackages: ["pg", "pino", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  // forbidden() answers a signed-in user without the permission with a 403 page (app/forbidden.tsx).
  experimental: { authInterrupts: true },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // Static assets skip proxy.ts; they are data, so nothing may run in or frame them either.
      { source: "/_next/static/:path*", headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }] },
      { source: "/favicon.ico", headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }] },
    ];
  },
};

export default nextConfig;
