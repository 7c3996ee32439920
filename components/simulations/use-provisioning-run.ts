"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { useSimulateProvisioning } from "@/components/bank/bank-mutations";
import { useLiveEvents, useLiveStatus } from "@/components/live/live-provider";
import { describeFailure } from "@/lib/bank/browser";
import { readBankList } from "@/lib/bank/queries";
import { walletProviders, type WalletProvider } from "@/lib/simulations/wallet-providers";

export interface ProvisioningToken {
  id: string;
  status: string;
  fulfillment_status: string;
  token_requestor_name: string;
}

/** The run just sent from this page: waiting for its token, found it, none came in time, or failed. */
export interface ProvisioningRun {
  key: number;
  cardId: string;
  state: "accepted" | "found" | "not-found" | "failed";
  token?: ProvisioningToken;
  message?: string;
}

/** How long a run waits for its token before it says none came. */
const waitMs = 60_000;
/** Reads of the card's tokens while the live connection is down (with it up, the token's change is awaited instead). */
const offlinePollMs = 5_000;

const tokensOf = (cardId: string) => readBankList<ProvisioningToken>("digital_wallet_token", { card_id: cardId, page_size: "100" });

/**
 * Runs the digital_wallet_token.provisioning simulation for a card and finds the token it made. The bank answers 202
 * with no body, so the card's tokens are read first, and after the 202 again at each wallet-token change the live feed
 * reports (on a slow timer only while the live connection is down) until one that was not there before exists.
 * Used by the simulations page and the card's page; the runs themselves are listed from the audit trail.
 */
export function useProvisioningRun() {
  const simulate = useSimulateProvisioning();
  const router = useRouter();
  const [run, setRun] = useState<ProvisioningRun | null>(null);
  const waiting = useRef<{ key: number; cardId: string; before: ReadonlySet<string> } | null>(null);
  const settle = useCallback((key: number, change: Partial<ProvisioningRun>) => {
    setRun((current) => (current && current.key === key && current.state === "accepted" ? { ...current, ...change } : current));
    if (waiting.current?.key === key) waiting.current = null;
  }, []);
  const look = useCallback(async () => {
    const pending = waiting.current;
    if (!pending) return;
    try {
      const token = (await tokensOf(pending.cardId)).data.find((candidate) => !pending.before.has(candidate.id));
      if (token) {
        settle(pending.key, { state: "found", token });
        // The runs list and the History are read on the server: they now name the token too.
        router.refresh();
      }
    } catch (error) {
      settle(pending.key, { state: "failed", message: describeFailure(error).message });
    }
  }, [settle, router]);
  /** Wallet token changes heard so far: one heard while the simulation was being sent is not waited for again. */
  const tokenChanges = useRef(0);
  useLiveEvents((event) => {
    if (event.type === "change" && event.change.resource !== "digital_wallet_token") return;
    tokenChanges.current += 1;
    void look();
  });
  const live = useLiveStatus();
  const isWaiting = run?.state === "accepted";
  useEffect(() => {
    if (live === "connected" || !isWaiting) return;
    const timer = setInterval(() => void look(), offlinePollMs);
    return () => clearInterval(timer);
  }, [live, isWaiting, look]);

  async function start({ cardId, fulfillment, provider }: { cardId: string; fulfillment: string; provider: WalletProvider }) {
    const key = Date.now();
    simulate.reset();
    let before: Set<string>;
    try {
      before = new Set((await tokensOf(cardId)).data.map((token) => token.id));
    } catch (error) {
      setRun({ key, cardId, state: "failed", message: describeFailure(error).message });
      return;
    }
    const changesBefore = tokenChanges.current;
    const body = {
      type: "digital_wallet_token.provisioning",
      simulation: {
        card_id: cardId,
        ...(fulfillment ? { fulfillment: { status: fulfillment } } : {}),
        token_service_provider: { token_requestor_name: provider, token_requestor_id: walletProviders[provider].requestorId },
      },
    };
    setRun(null);
    simulate.mutate(
      { body },
      {
        onSuccess: () => {
          waiting.current = { key, cardId, before };
          setRun({ key, cardId, state: "accepted" });
          // The token's change may have arrived before the bank's answer did.
          if (tokenChanges.current !== changesBefore) void look();
          setTimeout(
            () =>
              settle(key, { state: "not-found", message: "No new wallet token appeared within a minute; look at the card's wallet tokens later." }),
            waitMs,
          );
        },
      },
    );
  }

  return { start, run, pending: simulate.isPending, error: simulate.error };
}
