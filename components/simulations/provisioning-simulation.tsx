"use client";

import { useMemo, useState, type FormEvent } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useConsoleSession } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { useBankList } from "@/lib/bank/queries";
import type { WalletProvider } from "@/lib/simulations/wallet-providers";
import { fulfillmentOptions, providerOptions } from "./provisioning-options";
import { ProvisioningResult } from "./provisioning-result";
import { useProvisioningRun } from "./use-provisioning-run";

interface CardRow {
  id: string;
  last_four: string;
  cardholder_name: string;
  status: string;
}

const magicSuffixes = [
  { suffix: "_green", outcome: "decision_green (token approved)" },
  { suffix: "_yellow", outcome: "decision_yellow (pending_verification)" },
  { suffix: "_red", outcome: "decision_red (declined)" },
  { suffix: "_rejected", outcome: "rejected" },
];
const cardPage = { page_size: "200" };

/**
 * The digital_wallet_token.provisioning simulation: pick a card (searchable by id, last four, cardholder; canceled
 * cards are not offered), the fulfillment status and the wallet; the run then waits for its token
 * (use-provisioning-run.ts) and links it. Every run, this one included, is listed below from the audit trail.
 */
export function ProvisioningSimulation() {
  const { environment } = useConsoleSession();
  const [search, setSearch] = useState("");
  const [cardId, setCardId] = useState("");
  const [fulfillment, setFulfillment] = useState("");
  const [provider, setProvider] = useState<WalletProvider>("APPLE_PAY");
  const cards = useBankList<CardRow>(environment, "card", cardPage);
  const { start, run, pending, error } = useProvisioningRun();
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const open = (cards.data?.data ?? []).filter((card) => card.status !== "canceled");
    return needle ? open.filter((card) => [card.id, card.last_four, card.cardholder_name].some((text) => text.toLowerCase().includes(needle))) : open;
  }, [cards.data, search]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (cardId) void start({ cardId, fulfillment, provider });
  }

  return (
    <form
      onSubmit={submit}
      aria-labelledby="provisioning-title"
      data-testid="provisioning-form"
      className="space-y-3 rounded-md border border-line bg-surface p-3 break-words"
    >
      <h2 id="provisioning-title" className="text-sm font-semibold">
        Wallet provisioning <span className="font-normal break-all text-muted">(digital_wallet_token.provisioning)</span>
      </h2>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <div className="min-w-0 space-y-2">
          <TextField
            label="Search cards"
            type="search"
            value={search}
            onChange={(change) => setSearch(change.target.value)}
            hint="By card id, last four digits or cardholder name. Canceled cards are not listed."
          />
          <label htmlFor="simulation-card" className="block text-sm font-medium text-muted">
            Card
          </label>
          <select
            id="simulation-card"
            required
            size={6}
            value={cardId}
            onChange={(change) => setCardId(change.target.value)}
            className="block w-full rounded-md border border-line bg-surface text-sm"
            data-testid="card-picker"
          >
            {shown.map((card) => (
              <option key={card.id} value={card.id}>
                {card.id} · •••• {card.last_four} · {card.cardholder_name} ({card.status})
              </option>
            ))}
          </select>
          {cards.error ? <ActionError error={cards.error} /> : null}
          {cards.data && shown.length === 0 ? <p className="text-xs text-muted">No card matches.</p> : null}
        </div>
        <div className="space-y-3">
          <SelectField
            label="Fulfillment status"
            value={fulfillment}
            onChange={(change) => setFulfillment(change.target.value)}
            options={fulfillmentOptions}
          />
          <SelectField
            label="Wallet provider"
            value={provider}
            onChange={(change) => setProvider(change.target.value as WalletProvider)}
            options={providerOptions}
          />
          <div className="text-xs text-muted">
            <p className="font-medium">Magic card ids (docs/sandbox-data.md): without a fulfillment status, a card id ending in</p>
            <ul className="list-inside list-disc">
              {magicSuffixes.map((magic) => (
                <li key={magic.suffix}>
                  <span className="font-mono">{magic.suffix}</span> gives {magic.outcome}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
      <ActionError error={error} />
      {run ? <ProvisioningResult run={run} /> : null}
      <Button type="submit" disabled={!cardId || pending} aria-busy={pending}>
        {pending ? "Simulating…" : "Run simulation"}
      </Button>
    </form>
  );
}
