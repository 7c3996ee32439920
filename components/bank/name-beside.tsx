"use client";

import { useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";

/** Ids asked for within one tick go to `/api/names` in one request (a list page asks for many at once). */
let waiting: { ids: Map<string, Array<(name: string | null) => void>>; timer: ReturnType<typeof setTimeout> } | null = null;

function nameFor(id: string): Promise<string | null> {
  return new Promise((resolve) => {
    if (!waiting) {
      const batch = { ids: new Map<string, Array<(name: string | null) => void>>(), timer: setTimeout(() => void flush(batch.ids), 10) };
      waiting = batch;
    }
    const resolvers = waiting.ids.get(id) ?? [];
    resolvers.push(resolve);
    waiting.ids.set(id, resolvers);
  });
}

async function flush(ids: Map<string, Array<(name: string | null) => void>>) {
  waiting = null;
  const all = [...ids.keys()];
  for (let start = 0; start < all.length; start += 100) {
    const chunk = all.slice(start, start + 100);
    const names = await fetchConsole<{ names: Record<string, string> }>(`/api/names?${new URLSearchParams({ ids: chunk.join(",") })}`)
      .then((answer) => answer.names)
      .catch(() => ({}) as Record<string, string>);
    for (const id of chunk) for (const resolve of ids.get(id) ?? []) resolve(names[id] ?? null);
  }
}

/**
 * Names the server looked up with the rows of the first HTML ("" where the index knows none): shown at the first paint,
 * so no column widens under the reader when they arrive. Ids not in it are asked of `/api/names`.
 */
export const KnownNames = createContext<Readonly<Record<string, string>>>({});

/** The name the console's index knows for `id` (a counterparty, a card's holder), beside the id; nothing if none. */
export function NameBeside({ id }: { id: string }) {
  const known = useContext(KnownNames)[id];
  // A name the server sent with the rows needs no query observer (a list would hydrate 50 of them for nothing).
  return known === undefined ? <FetchedName id={id} /> : <Name name={known} />;
}

function FetchedName({ id }: { id: string }) {
  const { environment } = useConsoleSession();
  const { data } = useQuery({ queryKey: bankKeys.name(environment, id), queryFn: () => nameFor(id), staleTime: 60_000 });
  return <Name name={data} />;
}

function Name({ name }: { name: string | null | undefined }) {
  return name ? (
    <span data-testid="name-beside" className="ml-1.5 text-xs text-muted">
      {name}
    </span>
  ) : null;
}
