"use client";

import { useEffect, useState } from "react";
import { ActionError, AuditLink } from "@/components/actions/action-feedback";
import { CopyButton } from "@/components/bank/copy-button";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { buildDpopProof, createDpopKeyPair, decodeJwtClaims, jwkThumbprint, publicJwk } from "@/lib/cards/dpop-proof";
import { useIssueCardToken } from "@/components/bank/bank-mutations";

interface Issued {
  accessToken: string;
  tokenType: string;
  expiresAt: number;
  claims: Record<string, unknown>;
  /** The thumbprint of this page's key, to compare with the token's cnf.jkt. */
  keyThumbprint: string;
}

/** Seconds left until `at` (ms), ticking once a second; 0 once it passed. */
function useSecondsLeft(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.round((at - now) / 1000));
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

/**
 * "Card UX toolkit token" for roles holding `card:token`. This page makes the DPoP key pair (private key not
 * extractable) and signs the proof for the bank's URL of this card (`context.tokenUrl`, from the server); the console
 * forwards only the proof. The token lives in this component's state only; the audit record keeps no token.
 */
export function CardTokenPanel({ id, context }: DetailExtraProps) {
  const canRequest = useCan("card:token");
  const [issued, setIssued] = useState<Issued | null>(null);
  const [proofError, setProofError] = useState<unknown>(null);
  const secondsLeft = useSecondsLeft(issued?.expiresAt ?? null);
  const request = useIssueCardToken(id);
  if (!canRequest || !context.tokenUrl) return null;

  async function requestToken() {
    setProofError(null);
    setIssued(null);
    let keys: CryptoKeyPair;
    let dpop: string;
    try {
      keys = await createDpopKeyPair();
      dpop = await buildDpopProof(keys, { htm: "POST", htu: context.tokenUrl! });
    } catch (error) {
      setProofError(error);
      return;
    }
    const keyThumbprint = await jwkThumbprint(await publicJwk(keys));
    request.mutate(dpop, {
      onSuccess: (answer) =>
        setIssued({
          accessToken: answer.access_token,
          tokenType: answer.token_type,
          expiresAt: Date.now() + answer.expires_in * 1000,
          claims: decodeJwtClaims(answer.access_token),
          keyThumbprint,
        }),
    });
  }

  const jkt = (issued?.claims.cnf as { jkt?: unknown } | undefined)?.jkt;
  return (
    <section aria-labelledby="card-token-title" data-testid="card-token-panel" className="mt-4 rounded-md border border-line bg-surface p-3">
      <h2 id="card-token-title" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Card UX toolkit token
      </h2>
      <p className="mb-2 text-sm text-muted">
        Your browser makes a key pair (the private key never leaves it) and signs a DPoP proof for{" "}
        <span className="font-mono text-xs break-all">{context.tokenUrl}</span>; the token is bound to that key.
      </p>
      <Button type="button" onClick={requestToken} disabled={request.isPending} aria-busy={request.isPending}>
        {request.isPending ? "Requesting…" : issued ? "Request a new token" : "Request token"}
      </Button>
      <div className="mt-2">
        <ActionError error={proofError ?? request.error} />
      </div>
      {issued ? (
        <div className="mt-3 space-y-2 text-sm" data-testid="card-token">
          <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1">
            <dt className="text-muted">Token type</dt>
            <dd data-testid="token-type">{issued.tokenType}</dd>
            <dt className="text-muted">Expires in</dt>
            <dd data-testid="token-countdown" aria-live="off" className={secondsLeft === 0 ? "font-semibold text-red-700 dark:text-red-300" : ""}>
              {secondsLeft === 0 ? "expired" : clock(secondsLeft)}
            </dd>
            <dt className="text-muted">cnf.jkt</dt>
            <dd className="font-mono text-xs" data-testid="token-jkt">
              {String(jkt)}{" "}
              {jkt === issued.keyThumbprint ? (
                <span className="font-sans text-emerald-700 dark:text-emerald-400">(this page&apos;s key)</span>
              ) : (
                <span className="font-sans text-red-700">(not this page&apos;s key)</span>
              )}
            </dd>
            <dt className="text-muted">Access token</dt>
            <dd>
              <CopyButton value={issued.accessToken} label="Copy access token" />
            </dd>
          </dl>
          <h3 className="text-xs font-semibold text-muted">Claims (decoded, not verified)</h3>
          <pre className="overflow-x-auto rounded bg-surface-2 p-2 text-xs" data-testid="token-claims">
            {JSON.stringify(issued.claims, null, 2)}
          </pre>
          <p className="text-xs text-muted">
            The token is not stored anywhere; the request is in <AuditLink target={id} action="card.uxt_access_token.create" /> without it.
          </p>
        </div>
      ) : null}
    </section>
  );
}
