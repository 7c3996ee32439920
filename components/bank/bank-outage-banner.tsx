"use client";

import { useDisplayZone } from "@/components/format/time-zone";
import { exactTime } from "@/lib/format";
import type { IndexCopyMark } from "@/lib/bank/index-copy-mark";

const clocks = new Map<string, Intl.DateTimeFormat>();
/** "14:02" or "14:01:55" in `zone`, with the day before it ("Nov 27, 14:02") when it is not today there. */
function clock(iso: string, zone: string, seconds: boolean): string {
  const key = `${zone}|${seconds}`;
  let format = clocks.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      ...(seconds && { second: "2-digit" }),
      hourCycle: "h23",
    });
    clocks.set(key, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  const today = Object.fromEntries(format.formatToParts(new Date()).map((part) => [part.type, part.value]));
  const time = `${parts.hour}:${parts.minute}${seconds ? `:${parts.second}` : ""}`;
  return parts.month === today.month && parts.day === today.day ? time : `${parts.month} ${parts.day}, ${time}`;
}

/**
 * Shown in place of an error while the bank is not answering and the page shows the console's index copy
 * (docs/bank-outage.md): since when, how old the copy is, and that changes wait. It goes with the next answer the
 * bank gives.
 */
export function BankOutageBanner({ mark, list = false }: { mark: IndexCopyMark; list?: boolean }) {
  const { zone } = useDisplayZone();
  return (
    <p
      role="status"
      data-testid="bank-outage-banner"
      className="mb-3 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      The bank is not answering since{" "}
      <time dateTime={mark.bankSince} title={exactTime(mark.bankSince, zone)}>
        {clock(mark.bankSince, zone, false)}
      </time>
      . Showing the console&apos;s copy
      {mark.asOf ? (
        <>
          {" "}
          as of{" "}
          <time dateTime={mark.asOf} title={exactTime(mark.asOf, zone)}>
            {clock(mark.asOf, zone, true)}
          </time>
        </>
      ) : null}
      ; changes are paused.
      {list && !mark.complete ? " The console has not read this whole list yet: objects it has not seen are missing." : null}
    </p>
  );
}
