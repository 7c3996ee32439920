import { exactTime, formatDateTime, relativeTime } from "@/lib/format";
import { readDisplayZone } from "@/lib/time-zone-server";

/**
 * A time as a server component renders it, in the one date style: "Nov 17, 14:02" in the staff member's zone, the
 * exact second, zone and relative form on hover (or the relative form below, `relative="below"`). Client components
 * use `Timestamp` (components/bank/value.tsx), which reads the same zone from context.
 */
export function When({
  at,
  zone,
  relative = "tooltip",
  className,
}: {
  at: string;
  zone: string;
  relative?: "tooltip" | "below";
  className?: string;
}) {
  const ago = relativeTime(at);
  return (
    <>
      <time dateTime={at} title={relative === "tooltip" ? `${exactTime(at, zone)} · ${ago}` : exactTime(at, zone)} className={className}>
        {formatDateTime(at, zone)}
      </time>
      {relative === "below" ? <span className="block text-xs text-muted">{ago}</span> : null}
    </>
  );
}

/** `When` for a server component that has not read the zone itself (the cookie read is per request). */
export async function ServerWhen(props: Omit<Parameters<typeof When>[0], "zone">) {
  const { zone } = await readDisplayZone();
  return <When {...props} zone={zone} />;
}
