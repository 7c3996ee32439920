"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { LiveProvider } from "@/components/live/live-provider";
import type { Environment } from "@/lib/credentials/environments";
import type { Permission } from "@/lib/permissions";

interface ConsoleSession {
  userId: string;
  environment: Environment;
  /** The permissions of the signed-in role, so client components can hide what the role may not use. */
  permissions: readonly Permission[];
  /** How long a reveal of personal data stays shown before the page masks it again (REVEAL_MINUTES). */
  revealMinutes: number;
}

const SessionContext = createContext<ConsoleSession | null>(null);

export function useConsoleSession(): ConsoleSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useConsoleSession outside ConsoleProviders");
  return session;
}

export function useCan(permission: Permission): boolean {
  return useConsoleSession().permissions.includes(permission);
}

/** One QueryClient and one live connection per browser tab (per request on the server), and who is signed in where. */
export function ConsoleProviders({ session, children }: { session: ConsoleSession; children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Server-rendered data is fresh for a little while: hydration must not refetch at once.
          queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: false },
        },
      }),
  );
  // The outermost client component's effect runs once everything inside it has hydrated: `npm run bench:pages` reads
  // this mark as "hydration finished" (a performance mark costs nothing and shows in any browser's profiler).
  useEffect(() => {
    performance.mark("console:hydrated");
  }, []);
  return (
    <SessionContext.Provider value={session}>
      <QueryClientProvider client={client}>
        <LiveProvider environment={session.environment}>{children}</LiveProvider>
      </QueryClientProvider>
    </SessionContext.Provider>
  );
}
