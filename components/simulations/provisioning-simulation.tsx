"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { ActionError, AuditLink } from "@/components/actions/action-feedback";
import { useConsoleSession } from "@/components/console/providers";
import { useLiveEvents, useLiveStatus } from "@/components/live/live-provider";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { bankApiPath, describeFailure, fetchConsole, type BankPage } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { useBankAction } from "@/lib/bank/use-bank-action";
import { detailHref } from "@/lib/resources";

interface CardRow {
  id: string;
  last_four: string;
  cardholder_name: string;
  status: string;
}
interface TokenRow {
  id: string;
  status: string;
  fulfillment_status: string;
}
interface Run {
  key: number;
  at: string;
  cardId: string;
  fulfillment: string;
  provider: string;
  state: "accepted" | "found" | "not-found" | "failed";
  /** The card's tokens before the run, so the new one is told apart without trusting clocks. */
  before: ReadonlySet<string>;
  token?: TokenRow;
  message?: string;
}

// The sandbox's documented values (docs/sandbox-data.md); kept here because the page is the sandbox's own tool.
const providers = { APPLE_PAY: { label: "Apple Pay", requestorId: "40010030273" }, GOOGLE_PAY: { label: "Google Pay", requestorId: "40010075001" } } as const;
const fulfillments = ["decision_green", "decision_yellow", "decision_red", "rejected", "provisioned"] as const;
const magicSuffixes = [
  { suffix: "_green", outcome: "decision_green (token approved)" },
  { suffix: "_yellow", outcome: "decision_yellow (pending_verification)" },
  { suffix: "_red", outcome: "decision_red (declined)" },
  { suffix: "_rejected", outcome: "rejected" },
];
const cardPage = { page_size: "200" };
/** How long a run waits for its token before it says none came. */
const waitMs = 60_000;
/** Reads of the card's tokens while the live connection is down (with it up, the token's change is awaited instead). */
const offlinePollMs = 5_000;

const tokensOf = (cardId: string) => fetchConsole<BankPage<TokenRow>>(bankApiPath("/digital_wallet_token", { card_id: cardId, page_size: "100" }));

/**
 * The digital_wallet_token.provisioning simulation: pick a card (searchable by id, last four, cardholder), the
 * fulfillment status and the wallet; the bank answers 202 with no body, so the page then waits for a wallet token
 * change in the live feed and reads the card's tokens at each (slowly on a timer only while the live connection is
 * down) until a new token exists, and links it. This tab's runs are listed below.
 */
export function ProvisioningSimulation() {
  const { environment } = useConsoleSession();
  const [search, setSearch] = useState("");
  const [cardId, setCardId] = useState("");
  const [fulfillment, setFulfillment] = useState("");
  const [provider, setProvider] = useState<keyof typeof providers>("APPLE_PAY");
  const [runs, setRuns] = useState<Run[]>([]);
  const cards = useQuery({
    queryKey: bankKeys.list(environment, "card", cardPage),
    queryFn: () => fetchConsole<BankPage<CardRow>>(bankApiPath("/card", cardPage)),
  });
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const all = cards.data?.data ?? [];
    return needle ? all.filter((card) => [card.id, card.last_four, card.cardholder_name].some((text) => text.toLowerCase().includes(needle))) : all;
  }, [cards.data, search]);

  /** Settles a run still waiting; a run already settled stays as it is (a late read changes nothing). */
  const settle = useCallback(
    (key: number, change: Partial<Run>) => setRuns((all) => all.map((run) => (run.key === key && run.state === "accepted" ? { ...run, ...change } : run))),
    [],
  );
  const simulate = useBankAction<{ body: unknown; key: number; before: Set<string> }, undefined>({
    request: ({ body }) => ({ method: "POST", path: "/simulation", body }),
    invalidates: (env) => [bankKeys.lists(env, "digital_wallet_token")],
  });

  const waiting = useRef<Run[]>([]);
  useEffect(() => {
    waiting.current = runs.filter((run) => run.state === "accepted");
  }, [runs]);
  const lookForTokens = useCallback(
    () =>
      waiting.current.forEach(async (run) => {
        try {
          const token = (await tokensOf(run.cardId)).data.find((candidate) => !run.before.has(candidate.id));
          if (token) settle(run.key, { state: "found", token });
        } catch (error) {
          settle(run.key, { state: "failed", message: describeFailure(error).message });
        }
      }),
    [settle],
  );
  /** Wallet token changes heard so far: one heard while the simulation was being sent is not waited for again. */
  const tokenChanges = useRef(0);
  useLiveEvents((event) => {
    if (event.type === "change" && event.change.resource !== "digital_wallet_token") return;
    tokenChanges.current += 1;
    lookForTokens();
  });
  const live = useLiveStatus();
  const waitingCount = runs.filter((run) => run.state === "accepted").length;
  useEffect(() => {
    if (live === "connected" || waitingCount === 0) return;
    const timer = setInterval(lookForTokens, offlinePollMs);
    return () => clearInterval(timer);
  }, [live, waitingCount, lookForTokens]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!cardId) return;
    const key = Date.now();
    let before: Set<string>;
    try {
      // The tokens the card has already, so the new one is told apart without trusting clocks.
      before = new Set((await tokensOf(cardId)).data.map((token) => token.id));
    } catch (error) {
      simulate.reset();
      setRuns((all) => [{ key, at: new Date().toISOString(), cardId, fulfillment: fulfillment || "by card id", provider, state: "failed", before: new Set(), message: describeFailure(error).message }, ...all]);
      return;
    }
    const changesBefore = tokenChanges.current;
    const body = {
      type: "digital_wallet_token.provisioning",
      simulation: {
        card_id: cardId,
        ...(fulfillment ? { fulfillment: { status: fulfillment } } : {}),
        token_service_provider: { token_requestor_name: provider, token_requestor_id: providers[provider].requestorId },
      },
    };
    simulate.mutate(
      { body, key, before },
      {
        onSuccess: () => {
          const run: Run = { key, at: new Date().toISOString(), cardId, fulfillment: fulfillment || "by card id", provider, state: "accepted", before };
          setRuns((all) => [run, ...all]);
          waiting.current = [run, ...waiting.current];
          // The token's change may have arrived before the bank's answer did.
          if (tokenChanges.current !== changesBefore) lookForTokens();
          setTimeout(() => settle(key, { state: "not-found", message: "No new wallet token appeared within a minute; look at the card's wallet tokens later." }), waitMs);
        },
      },
    );
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} aria-labelledby="provisioning-title" data-testid="provisioning-form" className="space-y-3 rounded-md border border-line bg-surface p-3">
        <h2 id="provisioning-title" className="text-sm font-semibold">
          Wallet provisioning (digital_wallet_token.provisioning)
        </h2>
        <div className="grid gap-3 md:grid-cols-2">
          <div className="space-y-2">
            <TextField label="Search cards" type="search" value={search} onChange={(change) => setSearch(change.target.value)} hint="By card id, last four digits or cardholder name." />
            <label htmlFor="simulation-card" className="block text-sm font-medium text-muted">
              Card
            </label>
            <select id="simulation-card" required size={6} value={cardId} onChange={(change) => setCardId(change.target.value)} className="block w-full rounded-md border border-line bg-surface text-sm" data-testid="card-picker">
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
              options={[{ value: "", label: "Decided by the card id (magic suffix, else provisioned)" }, ...fulfillments.map((status) => ({ value: status, label: status }))]}
            />
            <SelectField
              label="Wallet provider"
              value={provider}
              onChange={(change) => setProvider(change.target.value as keyof typeof providers)}
              options={Object.entries(providers).map(([name, { label, requestorId }]) => ({ value: name, label: `${label} (requestor id ${requestorId})` }))}
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
        <ActionError error={simulate.error} />
        <Button type="submit" disabled={!cardId || simulate.isPending} aria-busy={simulate.isPending}>
          {simulate.isPending ? "Simulating…" : "Run simulation"}
        </Button>
      </form>

      <section aria-labelledby="runs-title">
        <h2 id="runs-title" className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
          This session&apos;s simulations
        </h2>
        {runs.length === 0 ? (
          <p className="text-sm text-muted">None yet.</p>
        ) : (
          <ol className="divide-y divide-line rounded-md border border-line bg-surface text-sm" data-testid="simulation-runs" aria-live="polite">
            {runs.map((run) => (
              <li key={run.key} className="p-2" data-testid="simulation-run" data-state={run.state}>
                <p>
                  <span className="font-mono text-xs text-muted">{run.at}</span> <span className="font-mono">{run.cardId}</span> · {run.fulfillment} · {providers[run.provider as keyof typeof providers]?.label ?? run.provider}
                </p>
                {run.state === "accepted" ? <p className="text-muted">The bank accepted it (202). Waiting for the wallet token…</p> : null}
                {run.state === "found" && run.token ? (
                  <p>
                    The bank accepted it (202) and created{" "}
                    <Link href={detailHref("digital_wallet_token", run.token.id)} className="font-mono text-accent underline" data-testid="simulation-token">
                      {run.token.id}
                    </Link>{" "}
                    with status <span data-testid="simulation-token-status">{run.token.status}</span> (fulfillment {run.token.fulfillment_status}). See <AuditLink target={run.cardId} action="simulation.run" historyHref={`${detailHref("card", run.cardId)}#history`} />.
                  </p>
                ) : null}
                {run.message ? <p className={run.state === "failed" ? "text-red-700 dark:text-red-300" : "text-muted"}>{run.message}</p> : null}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
