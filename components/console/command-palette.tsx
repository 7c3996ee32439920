"use client";

import { Command } from "cmdk";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { isShown, navigation } from "./navigation";
import { useConsoleSession } from "./providers";
import { useOpenById } from "./use-open-by-id";

/**
 * Ctrl/Cmd-K: jump to any section, or paste an id to open its detail page. Loaded on its own by
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
  const router = useRouter();
  const { permissions, environment } = useConsoleSession();
  const byId = useOpenById(() => setOpen(false));

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

  return (
    <Command.Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setSearch("");
          byId.reset();
        }
      }}
      label="Command palette"
      overlayClassName="fixed inset-0 z-40 bg-black/40"
      contentClassName="fixed left-1/2 top-24 z-50 w-[36rem] max-w-[92vw] -translate-x-1/2 overflow-hidden rounded-lg border border-line bg-surface text-fg shadow-2xl"
    >
      <Command.Input
        value={search}
        onValueChange={(value) => {
          setSearch(value);
          byId.reset();
        }}
        placeholder="Paste an id or type a section…"
        className="w-full border-b border-line bg-surface px-3 py-2.5 text-sm outline-none placeholder:text-muted"
      />
      {byId.status.state === "failed" ? (
        <p role="status" data-testid="palette-status" className="border-b border-line px-3 py-2 text-xs text-red-700 dark:text-red-300">
          {byId.status.message}
        </p>
      ) : null}
      <Command.List className="max-h-80 overflow-y-auto p-1">
        <Command.Empty className="px-3 py-2 text-sm text-muted">No section matches. Paste a full id to open it.</Command.Empty>
        {looksLikeId ? (
          <Command.Group heading="Id" className="text-xs text-muted [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1">
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
        <Command.Group heading="Sections" className="text-xs text-muted [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1">
          {sections.map((item) => (
            <Command.Item
              key={item.href}
              value={item.label}
              keywords={[item.description]}
              onSelect={() => {
                setOpen(false);
                router.push(item.href);
              }}
              className="cursor-pointer rounded px-2 py-1.5 text-sm text-fg data-[selected=true]:bg-surface-2"
            >
              {item.label}
            </Command.Item>
          ))}
        </Command.Group>
      </Command.List>
    </Command.Dialog>
  );
}
