import "server-only";
import Link from "next/link";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import { detailHref } from "@/lib/resources/routes";
import { readSimulationRuns, type SimulationRuns as Runs } from "@/lib/simulations/read-runs";
import { walletProviderName } from "@/lib/simulations/wallet-providers";
import { When } from "@/components/format/when";
import { Table, Td, Th } from "@/components/ui/table";
import { readDisplayZone } from "@/lib/time-zone-server";

const outcomeColour: Record<string, string> = {
  succeeded: "text-emerald-700 dark:text-emerald-400",
  failed: "text-red-700 dark:text-red-400",
  pending: "text-amber-700 dark:text-amber-400",
};

/**
 * The provisioning simulations run in this environment, newest first, read on the server from the audit trail on
 * every render (so a run is listed after leaving the page and coming back, and `router.refresh()` adds the next one),
 * each with the token it made (lib/simulations/read-runs.ts).
 */
export async function SimulationRuns({ user, environment }: { user: StaffUser; environment: Environment }) {
  let read: Runs;
  const { zone } = await readDisplayZone();
  try {
    read = await readSimulationRuns((await consoleDb()).db, user, environment);
  } catch {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        The runs could not be read from the audit trail.
      </p>
    );
  }
  return (
    <section aria-labelledby="runs-title" className="mt-4">
      <h2 id="runs-title" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Runs in the {environment} environment
      </h2>
      {read.unreadCards.length > 0 ? (
        <p className="mb-2 text-xs text-red-700 dark:text-red-300">
          The tokens of {read.unreadCards.map((card) => card.cardId).join(", ")} could not be read: {read.unreadCards[0]!.message}
        </p>
      ) : null}
      {read.runs.length === 0 ? (
        <p className="text-sm text-muted">None yet.</p>
      ) : (
        <Table data-testid="simulation-runs">
          <caption className="sr-only">Provisioning simulations, newest first</caption>
          <thead className="bg-surface-2">
            <tr>
              <Th>Time</Th>
              <Th>Card</Th>
              <Th>By</Th>
              <Th>Outcome</Th>
              <Th>Token</Th>
              <Th>Wallet</Th>
              <Th>Token status</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {read.runs.map((run) => (
              <tr key={run.id} data-testid="simulation-run-row" data-card={run.cardId ?? ""}>
                <Td className="text-xs whitespace-nowrap">
                  <When at={run.at} zone={zone} />
                </Td>
                <Td className="font-mono text-xs">
                  {run.cardId ? (
                    <Link href={detailHref("card", run.cardId)} className="link">
                      {run.cardId}
                    </Link>
                  ) : (
                    "n/a"
                  )}
                </Td>
                <Td className="text-xs">
                  {run.actorEmail} <span className="text-muted">({run.role})</span>
                </Td>
                <Td className={`text-xs ${outcomeColour[run.outcome] ?? ""}`}>
                  {run.outcome}
                  {run.error ? <span className="block text-muted">{run.error}</span> : null}
                </Td>
                <Td className="font-mono text-xs">
                  {run.token ? (
                    <Link href={detailHref("digital_wallet_token", run.token.id)} className="link" data-testid="run-token">
                      {run.token.id}
                    </Link>
                  ) : run.outcome === "succeeded" ? (
                    <span className="text-muted">not found</span>
                  ) : (
                    ""
                  )}
                </Td>
                <Td className="text-xs whitespace-nowrap">{run.token ? walletProviderName(run.token.token_requestor_name) : ""}</Td>
                <Td className="text-xs">{run.token ? `${run.token.status} (${run.token.fulfillment_status})` : ""}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
