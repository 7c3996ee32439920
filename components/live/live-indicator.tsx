"use client";

import { useLiveStatus, type LiveStatus } from "./live-provider";

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

/** The header's word on the live connection: the text says it, the dot only repeats it. */
export function LiveIndicator() {
  const status = useLiveStatus();
  const { label, dot, title } = shown[status];
  return (
    <span
      role="status"
      data-testid="live-indicator"
      data-status={status}
      title={title}
      className="inline-flex items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-xs whitespace-nowrap text-muted"
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dot}`} />
      <span className="sr-only">Live updates: </span>
      {label}
    </span>
  );
}
