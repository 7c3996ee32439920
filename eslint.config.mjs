import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "scripts/bench/forward-app/.next/**", "scripts/bench/forward-app/next-env.d.ts", ".data/**", "node_modules/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts", ".stryker-tmp/**", "reports/**"] },
];

export default config;
