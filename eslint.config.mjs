import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Imports point down only: app -> components -> lib; the sandbox bank uses only lib's shared kernel. Test files
    // and tests/support/ may reach across (a test starts the real sandbox bank).
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "sandbox/**/*.ts", "proxy.ts"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            { target: "./lib", from: ["./app", "./components"], message: "lib/ is the bottom layer: move the shared piece down into lib/." },
            {
              target: ["./app", "./components", "./lib", "./proxy.ts"],
              from: "./sandbox",
              message: "Import API names from @/lib/contract; the console talks to the sandbox bank over HTTP only.",
            },
            {
              target: "./components",
              from: "./app",
              message: "components/ may not import from app/: move the shared piece into components/ or lib/ (server actions live in lib/actions/).",
            },
            { target: "./sandbox", from: ["./app", "./components"], message: "The sandbox bank is a separate server: it shares only lib's kernel." },
            {
              target: "./sandbox",
              from: "./lib",
              except: ["./contract", "./db", "./env", "./log.ts"],
              message: "The sandbox bank uses only lib's shared kernel (contract, db, env, log).",
            },
          ],
        },
      ],
    },
  },
  {
    ignores: [
      ".next/**",
      "scripts/bench/forward-app/.next/**",
      "scripts/bench/forward-app/next-env.d.ts",
      ".data/**",
      "node_modules/**",
      "drizzle/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      ".stryker-tmp/**",
      "reports/**",
    ],
  },
];

export default config;
