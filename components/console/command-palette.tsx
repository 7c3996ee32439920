"use client";

import { Command } from "cmdk";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { SearchHit } from "@/lib/search/search";
import { hitActions, hitValue, PaletteHitActions, PaletteResults, usePaletteHits, type PaletteAction } from "./command-palette-results";
import { isShown, navigation } from "./navigation";
import { useCan, useConsoleSession } from "./providers";
import { useOpenById } from "./use-open-by-id";

const groupClass = "text-xs text-muted [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1";

/**
 * Ctrl/Cmd-K: jump to any section, paste an id to open its detail page, or search the index (docs/search.md) and
 * open a result or act on it (→: copy its id, its Simulate menu, its editor). Loaded on its own by
 * command-palette-loader.tsx (cmdk and its dialog are not first-load JavaScript): `openRequested` when Ctrl/Cmd-K was
 * pressed before this was listening, `onReady` once it listens for the keys itself.
 */
export default function CommandPalette({ openRequested = false, onReady }: { openRequested?: boolean; onReady?: () => void }) {
  const [open, setOpen] = useState(openRequested);
  // A request that arrives after mounting but before the listener below is set (React's "adjust state on a prop change").
  const [requested, setRequested] = useState(openRequested);
  if (openRequested !== requested) {
    setRequested(openRequested);
    if (openRequested) setOpen(true);
  }
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState("");
  const [actionsOf, setActionsOf] = useState<SearchHit | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const router = useRouter();
  const { permissions, environment } = useConsoleSession();
  const may = { controlSandbox: useCan("sandbox:control"), writeUserdata: useCan("bank:userdata:write"), writeWebhooks: useCan("webhook:write") };
  const byId = useOpenById(() => setOpen(false));
  const { hits, isFetching } = usePaletteHits(actionsOf ? "" : search);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key.toLowerCase() === "k" && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        setOpen((current) => !current);
      }
    }
    window.addEventListener("keydown", onKey);
    onReady?.();
    return () => window.removeEventListener("keydown", onKey);
  }, [onReady]);

  const sections = navigation.filter((item) => isShown(item, permissions, environment));
  const looksLikeId = /^[a-z]+_[A-Za-z0-9_-]+$/.test(search.trim());
  const actions = actionsOf ? hitActions(actionsOf, may, environment) : [];

  const close = () => {
    setOpen(false);
    setSearch("");
    setActionsOf(null);
    setCopied(null);
    byId.reset();
  };
  const go = (href: string) => {
    close();
    router.push(href);
  };
  const act = (action: PaletteAction) => {
    if (action.href) return go(action.href);
    void navigator.clipboard?.writeText(actionsOf!.id).then(() => setCopied(`Copied ${actionsOf!.id}`));
  };

  return (
    <Command.Dialog
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : close())}
      label="Command palette"
      value={selected}
      onValueChange={setSelected}
      onKeyDown={(event) => {
        // → or Tab on a result shows its actions; ← or Backspace in an empty box returns to the results.
        const hit = hits.find((candidate) => hitValue(candidate) === selected);
        if (!actionsOf && hit && (event.key === "ArrowRight" || event.key === "Tab")) {
          event.preventDefault();
          setActionsOf(hit);
          setCopied(null);
        } else if (actionsOf && (event.key === "ArrowLeft" || (event.key === "Backspace" && search === ""))) {
          event.preventDefault();
          setActionsOf(null);
          setCopied(null);
        }
      }}
      overlayClassName="fixed inset-0 z-40 bg-black/40"
      contentClassName="fixed left-1/2 top-24 z-50 w-[36rem] max-w-[92vw] -translate-x-1/2 overflow-hidden rounded-lg border border-line bg-surface text-fg shadow-2xl"
    >
      <Command.Input
        value={search}
        onValueChange={(value) => {
          setSearch(value);
          byId.reset();
        }}
        placeholder="Search the bank. Paste an id or type a section…"
        className="w-full border-b border-line bg-surface px-3 py-2.5 text-sm outline-none placeholder:text-muted"
      />
      {byId.status.state === "failed" || copied ? (
        <p
          role="status"
          data-testid="palette-status"
          className={`border-b border-line px-3 py-2 text-xs ${copied ? "text-muted" : "text-red-700 dark:text-red-300"}`}
        >
          {copied ?? (byId.status.state === "failed" ? byId.status.message : null)}
        </p>
      ) : null}
      <Command.List className="max-h-80 overflow-y-auto p-1">
        {actionsOf ? (
          <PaletteHitActions hit={actionsOf} actions={actions} onAction={act} />
        ) : (
          <>
            {hits.length === 0 && !isFetching ? (
              <Command.Empty className="px-3 py-2 text-sm text-muted">Nothing matches. Paste a full id to open it.</Command.Empty>
            ) : null}
            {looksLikeId ? (
              <Command.Group heading="Id" className={groupClass}>
                <Command.Item
                  value={`open ${search.trim()}`}
                  onSelect={() => void byId.open(search)}
                  className="cursor-pointer rounded px-2 py-1.5 font-mono text-sm text-fg data-[selected=true]:bg-surface-2"
                >
                  Open {search.trim()}
                  {byId.status.state === "checking" ? <span className="ml-2 text-muted">looking up…</span> : null}
                </Command.Item>
              </Command.Group>
            ) : null}
            <Command.Group heading="Sections" className={groupClass}>
              {sections.map((item) => (
                <Command.Item
                  key={item.href}
                  value={item.label}
                  keywords={[item.description]}
                  onSelect={() => go(item.href)}
                  className="cursor-pointer rounded px-2 py-1.5 text-sm text-fg data-[selected=true]:bg-surface-2"
                >
                  {item.label}
                </Command.Item>
              ))}
            </Command.Group>
            <PaletteResults hits={hits} isFetching={isFetching} onOpen={go} />
          </>
        )}
      </Command.List>
    </Command.Dialog>
  );
}
