import path from "node:path";

/** The benchmark's forwarding app (the ceiling of `npm run bench:console`); packages come from the project's node_modules. */
const config = {
  turbopack: { root: path.resolve(import.meta.dirname, "../../..") },
  // The project's own `tsc --noEmit` checks the route; no second type check on every bench run.
  typescript: { ignoreBuildErrors: true },
};

export default config;
