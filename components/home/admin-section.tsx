import Link from "next/link";
import { When } from "@/components/format/when";
import type { AdminFigures } from "@/lib/home/admin";
import type { Read } from "@/lib/home/home-page";
import { FigureCard, ReadError } from "./figure-card";

const secondsWords = (seconds: number) =>
  seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds / 3600)} h`;

/** The bank as this console process last saw it: answering or not, since when, and its breaker. */
function BankState({ bank, zone }: { bank: AdminFigures["bank"]; zone: string }) {
  const { reachability, breaker } = bank;
  const down = reachability?.state === "unreachable" || breaker?.state === "open";
  return (
    <li className="rounded-md border border-line bg-surface p-2.5 sm:p-3" data-testid="home-bank-state" data-state={reachability?.state ?? "unknown"}>
      <span className={`block text-xl font-semibold sm:text-2xl ${down ? "text-red-700 dark:text-red-300" : ""}`}>
        {reachability ? (reachability.state === "reachable" ? "Answering" : "Not answering") : "Not tried yet"}
      </span>
      <span className="block text-sm text-muted">The bank</span>
      {reachability ? (
        <span className="mt-1 block text-xs text-muted">
          Last tried <When at={reachability.checkedAt} zone={zone} />
          {breaker?.lastAnsweredAt ? (
            <>
              ; last answered <When at={breaker.lastAnsweredAt} zone={zone} />
            </>
          ) : (
            "; no answer since the console started"
          )}
          {breaker?.state === "open" ? "; reads are refused until a probe gets an answer (breaker open)" : null}
          {breaker?.state === "half_open" ? "; one read is probing the bank (breaker half open)" : null}
        </span>
      ) : (
        <span className="mt-1 block text-xs text-muted">This console process has not called this bank since it started.</span>
      )}
    </li>
  );
}

/** What an admin watches: changes held for approval, whether the bank answers, how far behind the index is. */
export function AdminSection({ figures, zone }: { figures: Read<AdminFigures>; zone: string }) {
  return (
    <section aria-labelledby="admin-title" className="mb-6" data-testid="home-admin">
      <h2 id="admin-title" className="mb-2 text-base font-semibold">
        Administration
      </h2>
      {figures.ok ? (
        <ul className="grid grid-cols-2 gap-2 xl:grid-cols-4">
          <FigureCard label="Approvals pending" {...figures.value.pendingApprovals} />
          <BankState bank={figures.value.bank} zone={zone} />
          <li className="rounded-md border border-line bg-surface" data-testid="home-index-lag">
            <Link href={figures.value.index.href} className="block h-full rounded-md p-2.5 hover:bg-surface-2 sm:p-3">
              <span className="block text-xl font-semibold tabular-nums sm:text-2xl">
                {figures.value.index.lagSeconds === null ? "Empty" : secondsWords(figures.value.index.lagSeconds)}
              </span>
              <span className="block text-sm text-muted">Index lag (since its newest change)</span>
              <span className="mt-1 block text-xs text-muted">
                {figures.value.index.waiting.toLocaleString("en-US")} bank notification{figures.value.index.waiting === 1 ? "" : "s"} waiting to be
                applied
              </span>
            </Link>
          </li>
        </ul>
      ) : (
        <ReadError what="approvals, the bank and the index" error={figures.error} />
      )}
    </section>
  );
}
