import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // The contract (lib/contract) owns the API's names; the console reaches the sandbox bank only over HTTP.
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "proxy.ts"],
    ignores: ["**/*.test.ts", "**/test-support/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/sandbox/*", "**/sandbox/*"], message: "Import API names from @/lib/contract; the console talks to the sandbox bank over HTTP only." }] }],
    },
  },
  { ignores: [".next/**", "scripts/bench/forward-app/.next/**", "scripts/bench/forward-app/next-env.d.ts", ".data/**", "node_modules/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts", ".stryker-tmp/**", "reports/**"] },
];

export default config;
