import { readDisplayZone } from "@/lib/time-zone-server";
import { TimeZoneSelect } from "./time-zone";

/** The header's "Times: Local / UTC" choice, given the zone this request is rendered in. */
export async function TimeZoneSwitch() {
  return <TimeZoneSelect value={await readDisplayZone()} />;
}
