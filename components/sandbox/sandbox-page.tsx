import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { can } from "@/lib/permissions";
import { SandboxClock } from "./sandbox-clock";
import { SandboxData } from "./sandbox-data";
import { SandboxFaults } from "./sandbox-faults";

/**
 * /sandbox: the sandbox bank as a test instrument (docs/sandbox-control.md): its clock, failures on demand, reset and
 * snapshots. Every role that reads the bank sees its state; the controls show to the roles holding their permission
 * (the console's routes check it again). Outside the sandbox the page exists (a bookmark must not break) but says
 * there is nothing of the kind and offers nothing.
 */
export async function SandboxPage() {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const drives = can(user.role, "sandbox:control") || can(user.role, "sandbox:reset");
  return (
    <>
      <PageHeader
        title="Sandbox"
        description="Put the sandbox bank into a known state, move its clock, and make it fail on purpose, to see how the console and your own code cope."
      />
      {environment !== "sandbox" ? (
        <Notice tone="info" testId="sandbox-only">
          Not found in {environment}: the sandbox controls exist only in the sandbox environment. A real bank has no reset, snapshot, clock or
          failures on demand. Switch to sandbox in the header to use them.
        </Notice>
      ) : (
        <div className="space-y-6">
          {drives ? null : (
            <Notice tone="info" testId="sandbox-read-only">
              Your role ({user.role}) sees the sandbox&apos;s clock and its active failures; driving it (the clock, failures, reset and snapshots) is
              for operations and admins.
            </Notice>
          )}
          <SandboxClock />
          <SandboxFaults />
          <SandboxData />
        </div>
      )}
    </>
  );
}
