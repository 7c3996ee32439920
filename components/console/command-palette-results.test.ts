import { describe, expect, it } from "vitest";
import type { SearchHit } from "@/lib/search/search";
import { hitActions } from "./command-palette-results";

// What Cmd/Ctrl-K offers for a search result (docs/search.md, "The command palette"): open and copy for every one,
// Simulate and the editor only where the object has them and the role may use them.

const hit = (resource: SearchHit["resource"], id: string): SearchHit => ({
  id,
  resource,
  name: null,
  status: null,
  amount: null,
  createdAt: null,
  matched: [],
  score: 1,
});
const everything = { controlSandbox: true, writeUserdata: true, writeWebhooks: true };
const nothing = { controlSandbox: false, writeUserdata: false, writeWebhooks: false };
const labels = (actions: ReturnType<typeof hitActions>) => actions.map((action) => action.label);

describe("the palette's actions on a search result", () => {
  it("opens and copies every result; a counterparty has nothing more", () => {
    expect(hitActions(hit("counterparty", "cp_1"), everything, "sandbox")).toEqual([
      { key: "open", label: "Open", href: "/counterparties/cp_1" },
      { key: "copy", label: "Copy id" },
    ]);
  });

  it("offers Simulate on the kinds with a Simulate menu, in the sandbox, to a role holding sandbox:control", () => {
    for (const [resource, path] of [
      ["ach", "/ach/x_1"],
      ["fednow", "/instant-payments/x_1"],
      ["webhook", "/webhooks/x_1"],
    ] as const)
      expect(hitActions(hit(resource, "x_1"), everything, "sandbox")).toContainEqual({
        key: "simulate",
        label: "Simulate…",
        href: `${path}#simulate`,
      });
    expect(labels(hitActions(hit("ach", "ach_1"), everything, "production"))).toEqual(["Open", "Copy id"]);
    expect(labels(hitActions(hit("ach", "ach_1"), nothing, "sandbox"))).toEqual(["Open", "Copy id"]);
  });

  it("offers a network transfer's userdata editor and a webhook's settings only to roles that may write them", () => {
    expect(labels(hitActions(hit("network_transfer", "nt_1"), everything, "production"))).toEqual(["Open", "Copy id", "Edit userdata"]);
    expect(labels(hitActions(hit("webhook", "webhook_1"), everything, "production"))).toEqual(["Open", "Copy id", "Edit webhook"]);
    expect(labels(hitActions(hit("network_transfer", "nt_1"), nothing, "sandbox"))).toEqual(["Open", "Copy id"]);
    expect(labels(hitActions(hit("webhook", "webhook_1"), nothing, "sandbox"))).toEqual(["Open", "Copy id"]);
  });
});
