"use client";

import { useDisplayZone } from "@/components/format/time-zone";
import { exactTime, formatDateTime, relativeTime } from "@/lib/format";

/**
 * A timestamp in the one date style (lib/format/time.ts): "Nov 17, 14:02" in the staff member's zone (the server rendered
 * it in the same zone, from the cookie), the relative form beside it ("· 6 days ago") or, in compact cells, in the
 * tooltip with the exact second and zone. The relative part depends on the clock, so it may differ from the server's.
 */
export function Timestamp({ value, compact = false }: { value: string; compact?: boolean }) {
  const { zone } = useDisplayZone();
  const ago = relativeTime(value);
  return (
    <time dateTime={value} title={`${exactTime(value, zone)} · ${ago}`} suppressHydrationWarning className="figure">
      {formatDateTime(value, zone)}
      {compact ? null : (
        <span className="text-muted" suppressHydrationWarning>
          {" "}
          · {ago}
        </span>
      )}
    </time>
  );
}
