import type { Metadata } from "next";
import { ThemeProvider } from "next-themes";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import "./globals.css";

/** Every page's title names what is on it, then the console: `ACH transfers · Bank console` (docs/console-pages.md). */
export const metadata: Metadata = {
  title: { default: "Bank console", template: "%s · Bank console" },
  description: "Back-office console for bank operations and compliance staff",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The theme script runs before paint (no flash); it needs the page's CSP nonce (proxy.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen bg-canvas text-fg antialiased">
        <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
          {children}
        </ThemeProvider>
      </body>
    </html>
  );
}
