"use client";

import Link from "next/link";
import { AuditLink } from "@/components/actions/action-feedback";
import { detailHref } from "@/lib/resources/routes";
import { walletProviderName } from "@/lib/simulations/wallet-providers";
import type { ProvisioningRun } from "./use-provisioning-run";

/** What became of the run just sent: waiting, the token it made (linked), none in time, or the failure. */
export function ProvisioningResult({ run }: { run: ProvisioningRun }) {
  return (
    <div role="status" aria-live="polite" className="text-sm" data-testid="simulation-run" data-state={run.state}>
      {run.state === "accepted" ? <p className="text-muted">The bank accepted it (202). Waiting for the wallet token…</p> : null}
      {run.state === "found" && run.token ? (
        <p>
          The bank accepted it (202) and created{" "}
          <Link
            href={detailHref("digital_wallet_token", run.token.id)}
            className="font-mono break-all text-accent underline"
            data-testid="simulation-token"
          >
            {run.token.id}
          </Link>{" "}
          ({walletProviderName(run.token.token_requestor_name)}) with status <span data-testid="simulation-token-status">{run.token.status}</span>{" "}
          (fulfillment {run.token.fulfillment_status}). See{" "}
          <AuditLink target={run.cardId} action="simulation.run" historyHref={`${detailHref("card", run.cardId)}#history`} />.
        </p>
      ) : null}
      {run.message ? <p className={run.state === "failed" ? "text-red-700 dark:text-red-300" : "text-muted"}>{run.message}</p> : null}
    </div>
  );
}
