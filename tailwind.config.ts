import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        production: { DEFAULT: "#b45309", foreground: "#fffbeb" },
        sandbox: { DEFAULT: "#0f766e", foreground: "#f0fdfa" },
      },
    },
  },
} satisfies Config;
