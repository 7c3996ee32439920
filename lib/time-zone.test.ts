import { describe, expect, it } from "vitest";
import { displayZone } from "./time-zone";

describe("the zone times are shown in, from the browser's cookies", () => {
  it("is UTC until the browser said its zone, then that zone, and UTC again when the staff member chose it", () => {
    expect(displayZone({})).toEqual({ zone: "UTC", local: null, mode: "local" });
    expect(displayZone({ zone: "Europe/Berlin" })).toEqual({ zone: "Europe/Berlin", local: "Europe/Berlin", mode: "local" });
    expect(displayZone({ zone: "Europe/Berlin", mode: "utc" })).toEqual({ zone: "UTC", local: "Europe/Berlin", mode: "utc" });
  });

  it("treats an unknown zone or mode as absent", () => {
    expect(displayZone({ zone: "Mars/Olympus" })).toEqual({ zone: "UTC", local: null, mode: "local" });
    expect(displayZone({ zone: "<script>", mode: "sideways" })).toEqual({ zone: "UTC", local: null, mode: "local" });
  });
});
