/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Server-only packages that must not be bundled: native/wasm drivers are loaded from node_modules at run time.
  serverExternalPackages: ["pg", "pino", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
};

export default nextConfig;
