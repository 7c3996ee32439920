"use client";

import { useEffect, useState } from "react";
import { useDisplayZone } from "@/components/format/time-zone";
import { exactTime } from "@/lib/format";
import type { BankHealth } from "@/lib/health/bank-health";
import { useLiveEnvironment, useLiveStatus, type LiveStatus } from "./live-provider";

const shown: Record<LiveStatus, { label: string; dot: string; title: string }> = {
  connecting: { label: "Connecting…", dot: "bg-amber-500", title: "Connecting to the live updates" },
  connected: { label: "Live", dot: "bg-emerald-500", title: "Live: pages update themselves when the bank changes" },
  reconnecting: {
    label: "Reconnecting…",
    dot: "bg-amber-500 animate-pulse",
    title: "Live updates interrupted; reconnecting, nothing will be missed",
  },
  offline: { label: "Offline", dot: "bg-red-600", title: "Live updates are offline; still retrying. Reload a page to see the latest." },
};

/** How often the indicator asks the console how the bank is doing (the health route: what this console last saw). */
const bankCheckMs = 15_000;

/**
 * What the console last saw of the active environment's bank and its breaker (`/api/health`, signed in), polled while the tab is
 * visible; null until known or when the console has not tried that bank yet.
 */
function useBankHealth(): BankHealth | null {
  const environment = useLiveEnvironment();
  const [bank, setBank] = useState<BankHealth | null>(null);
  useEffect(() => {
    if (!environment) return;
    let stopped = false;
    const check = async () => {
      if (document.visibilityState !== "visible") return;
      try {
        const response = await fetch("/api/health", { cache: "no-store" });
        const body = (await response.json()) as { bank?: Partial<Record<string, BankHealth>> };
        if (!stopped) setBank(body.bank?.[environment] ?? null);
      } catch {
        // The console itself not answering shows as the live stream's own state.
      }
    };
    void check();
    const timer = setInterval(() => void check(), bankCheckMs);
    document.addEventListener("visibilitychange", check);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", check);
    };
  }, [environment]);
  return bank;
}

/**
 * The header's word on the live connection and the bank behind it: "Live" only while the stream is connected and
 * the bank answers; "Bank down" while the stream is up but the bank is not answering (nothing new can arrive). The
 * text says it, the dot only repeats it.
 */
export function LiveIndicator() {
  const status = useLiveStatus();
  const bank = useBankHealth();
  const { zone } = useDisplayZone();
  const bankDown = status === "connected" && (bank?.state === "unreachable" || bank?.circuit?.state === "open");
  const { label, dot, title } = bankDown
    ? {
        label: "Bank down",
        dot: "bg-red-600",
        title: `Live updates connected, but the bank is not answering (last answer ${bank.circuit?.lastAnsweredAt ? exactTime(bank.circuit.lastAnsweredAt, zone) : "none since the console started"}, last tried ${exactTime(bank.checkedAt, zone)}): nothing new arrives until it answers`,
      }
    : shown[status];
  return (
    <span
      role="status"
      data-testid="live-indicator"
      data-status={status}
      data-bank={bank?.state ?? "unknown"}
      title={title}
      className="inline-flex items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-xs whitespace-nowrap text-muted"
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dot}`} />
      <span className="sr-only">Live updates: </span>
      {label}
    </span>
  );
}
