"use client";

import { useState, type FormEvent } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { fulfillmentOptions, providerOptions } from "@/components/simulations/provisioning-options";
import { ProvisioningResult } from "@/components/simulations/provisioning-result";
import { useProvisioningRun } from "@/components/simulations/use-provisioning-run";
import type { WalletProvider } from "@/lib/simulations/wallet-providers";

/**
 * "Simulate wallet provisioning" on a card's page: the simulations page's provisioning run for this card, where the
 * card is. Offered only in the sandbox (the proxy refuses it elsewhere), to roles holding `simulation:run`, and not
 * for a canceled card (a canceled card is not added to a wallet). The run's audit record is about the card, so it
 * shows in this page's History at once; the token it made shows it in its own.
 */
export default function CardSimulationForm({ id }: { id: string }) {
  const [fulfillment, setFulfillment] = useState("");
  const [provider, setProvider] = useState<WalletProvider>("GOOGLE_PAY");
  const { start, run, pending, error } = useProvisioningRun();

  function submit(event: FormEvent) {
    event.preventDefault();
    void start({ cardId: id, fulfillment, provider });
  }

  return (
    <section aria-labelledby="card-simulation-title" data-testid="card-simulation" className="mt-4 rounded-md border border-line bg-surface p-3">
      <h2 id="card-simulation-title" className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
        Simulate wallet provisioning
      </h2>
      <p className="mb-2 text-sm text-muted">
        Sandbox only: the bank adds this card to a digital wallet as if the cardholder had, and makes a wallet token.
      </p>
      <form onSubmit={submit} className="grid items-end gap-3 md:grid-cols-[1fr_1fr_auto]">
        <SelectField
          label="Wallet provider"
          name="provider"
          value={provider}
          onChange={(change) => setProvider(change.target.value as WalletProvider)}
          options={providerOptions}
        />
        <SelectField
          label="Fulfillment status"
          name="fulfillment"
          value={fulfillment}
          onChange={(change) => setFulfillment(change.target.value)}
          options={fulfillmentOptions}
        />
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? "Simulating…" : "Simulate wallet provisioning"}
        </Button>
      </form>
      <div className="mt-2 space-y-2">
        <ActionError error={error} />
        {run ? <ProvisioningResult run={run} /> : null}
      </div>
    </section>
  );
}
