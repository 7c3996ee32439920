"use client";

import { Command } from "cmdk";
import { hitHref, useSearch } from "@/components/search/use-search";
import { formatAmount } from "@/lib/format";
import type { Environment } from "@/lib/credentials/environments";
import { resourceRoutes } from "@/lib/resources/routes";
import type { SearchHit } from "@/lib/search/search";

const itemClass = "cursor-pointer rounded px-2 py-1.5 text-sm text-fg data-[selected=true]:bg-surface-2";
const groupClass = "text-xs text-muted [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1";

/** Hits shown in the palette: enough to pick the one meant, few enough to keep the sections in view. */
const paletteHits = 6;

/** Kinds with a Simulate menu on their page (components/bank/detail-extras.tsx), sandbox only. */
const simulated = new Set(["ach", "network_transfer", "fednow", "webhook"]);

/** What the role may do that a hit's actions depend on: `sandbox:control`, `bank:userdata:write`, `webhook:write`. */
export interface PaletteGrants {
  controlSandbox: boolean;
  writeUserdata: boolean;
  writeWebhooks: boolean;
}

export interface PaletteAction {
  key: "open" | "copy" | "simulate" | "edit";
  label: string;
  /** Where the action leads (the object's page, at the part that does it); none for copying. */
  href?: string;
}

/**
 * What the palette offers for one hit: open it, copy its id, and where the object has them and the role may use them,
 * its Simulate menu (sandbox, `sandbox:control`) and its editor (a network transfer's userdata, a webhook's settings).
 */
export function hitActions(hit: SearchHit, may: PaletteGrants, environment: Environment): PaletteAction[] {
  const href = hitHref(hit);
  const actions: PaletteAction[] = [
    { key: "open", label: "Open", href },
    { key: "copy", label: "Copy id" },
  ];
  if (simulated.has(hit.resource) && environment === "sandbox" && may.controlSandbox)
    actions.push({ key: "simulate", label: "Simulate…", href: `${href}#simulate` });
  if (hit.resource === "network_transfer" && may.writeUserdata) actions.push({ key: "edit", label: "Edit userdata", href: `${href}#userdata-title` });
  if (hit.resource === "webhook" && may.writeWebhooks) actions.push({ key: "edit", label: "Edit webhook", href: `${href}#webhook-actions` });
  return actions;
}

/** One hit as the palette shows it: name, kind, amount and id. */
function HitLabel({ hit }: { hit: SearchHit }) {
  const definition = resourceRoutes[hit.resource];
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-x-2">
      <span className="font-medium">{hit.name ?? definition.singular}</span>
      <span className="text-xs text-muted">{definition.singular}</span>
      {hit.amount ? <span className="font-mono text-xs">{formatAmount(hit.amount)}</span> : null}
      <span className="font-mono text-xs text-muted">{hit.id}</span>
    </span>
  );
}

/** The search's best hits for what the palette holds (the same search as the header box). */
export function PaletteResults({ hits, isFetching, onOpen }: { hits: SearchHit[]; isFetching: boolean; onOpen: (href: string) => void }) {
  if (hits.length === 0) return isFetching ? <Command.Loading className="px-3 py-2 text-xs text-muted">Searching the index…</Command.Loading> : null;
  return (
    // Forced: the server found these for the text; cmdk's own filter of the sections would hide them.
    <Command.Group heading="Results · Enter opens, → actions" forceMount className={groupClass}>
      {hits.map((hit) => (
        <Command.Item
          key={hit.id}
          value={hitValue(hit)}
          forceMount
          onSelect={() => onOpen(hitHref(hit))}
          className={itemClass}
          data-testid="palette-hit"
          data-id={hit.id}
        >
          <HitLabel hit={hit} />
        </Command.Item>
      ))}
    </Command.Group>
  );
}

/** The palette's value of a hit's item (what the arrows select). */
export const hitValue = (hit: SearchHit) => `hit:${hit.id}`;

/** The best hits for the palette's text, searched from two characters on. */
export function usePaletteHits(search: string) {
  const { hits, isFetching } = useSearch(search.trim().length >= 2 ? search : "");
  return { hits: hits.slice(0, paletteHits), isFetching };
}

/** The actions of one hit, the palette's second page (Escape or Backspace on an empty box returns to the results). */
export function PaletteHitActions({
  hit,
  actions,
  onAction,
}: {
  hit: SearchHit;
  actions: PaletteAction[];
  onAction: (action: PaletteAction) => void;
}) {
  return (
    <Command.Group heading={<HitLabel hit={hit} />} forceMount className={groupClass}>
      {actions.map((action) => (
        <Command.Item
          key={action.key}
          value={`action:${action.key}`}
          forceMount
          onSelect={() => onAction(action)}
          className={itemClass}
          data-testid="palette-action"
        >
          {action.label}
        </Command.Item>
      ))}
    </Command.Group>
  );
}
