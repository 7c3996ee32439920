import type { ReactNode } from "react";
import { ConsoleHeader } from "@/components/console/console-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";

/** The signed-in shell. Each page still checks the session and its own permission: a layout check alone is not enough. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <>
      <ConsoleHeader user={user} environment={await getActiveEnvironment()} />
      <main className="mx-auto max-w-6xl p-6">{children}</main>
    </>
  );
}
