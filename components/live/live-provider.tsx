"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { bankKeys } from "@/lib/bank/query-keys";
import type { Environment } from "@/lib/credentials/environments";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";

/** One change of the index in the active environment, as /api/live tells it: which object, never its data. */
export interface LiveChange {
  resource: ResourceName;
  id: string;
}

/** `reset`: the stream could not catch up change by change; everything shown may be stale. */
export type LiveEvent = { type: "change"; change: LiveChange } | { type: "reset" };

export type LiveStatus = "connecting" | "connected" | "reconnecting" | "offline";

interface LiveContext {
  status: LiveStatus;
  /** The environment the stream follows (the header's indicator asks how that environment's bank is doing). */
  environment: Environment | null;
  listen(listener: (event: LiveEvent) => void): () => void;
}

const Context = createContext<LiveContext>({ status: "offline", environment: null, listen: () => () => {} });

/** Waits before reconnecting: 1 s, doubling to 30 s. */
const backoffMs = (failures: number) => Math.min(30_000, 1000 * 2 ** failures);
/** A stream ended because its console process is stopping is opened again within this. */
const restartSpreadMs = 500;
/** Failed attempts in a row after which the indicator says offline rather than reconnecting (it keeps trying). */
const offlineAfter = 3;

const isResource = (value: unknown): value is ResourceName => typeof value === "string" && Object.hasOwn(resourceRoutes, value);

/**
 * The tab's ONE connection to /api/live. Every change of the active environment makes that object's cached detail
 * stale (bankKeys.detail), then goes to the listeners (lists count it, detail pages and Home refresh). A dropped
 * connection is opened again with backoff, from the last id seen (`?after=`), so nothing is missed or told twice. A
 * stream ended with `end` "restarting" (its console process is stopping) is opened again at once, from the last id; one
 * ended with any other reason (the session ended) is not reopened: the tab goes to sign-in, which says why.
 */
export function LiveProvider({ environment, children }: { environment: Environment; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const listeners = useRef(new Set<(event: LiveEvent) => void>());

  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let lastId: string | undefined;
    let failures = 0;
    const tell = (event: LiveEvent) => listeners.current.forEach((listener) => listener(event));

    function connect() {
      source = new EventSource(lastId === undefined ? "/api/live" : `/api/live?after=${encodeURIComponent(lastId)}`);
      source.addEventListener("ready", (event) => {
        lastId = event.lastEventId;
        failures = 0;
        setStatus("connected");
      });
      source.addEventListener("change", (event) => {
        lastId = event.lastEventId;
        const change = JSON.parse(event.data) as { environment: string; resource: unknown; id: string };
        if (change.environment !== environment || !isResource(change.resource)) return;
        void queryClient.invalidateQueries({ queryKey: bankKeys.detail(environment, change.resource, change.id) });
        tell({ type: "change", change: { resource: change.resource, id: change.id } });
      });
      source.addEventListener("reset", (event) => {
        lastId = event.lastEventId;
        void queryClient.invalidateQueries({ queryKey: bankKeys.all(environment) });
        tell({ type: "reset" });
      });
      source.addEventListener("end", (event) => {
        source?.close();
        const { reason } = JSON.parse(event.data) as { reason: string };
        if (reason === "restarting") {
          // The console process is stopping: the load balancer sends the new stream to another instance. Spread over
          // half a second so the tabs of a stopping instance do not all arrive at once.
          setStatus("reconnecting");
          retry = setTimeout(connect, Math.random() * restartSpreadMs);
          return;
        }
        // The session ended (signed out, locked, removed, expired, idle): reconnecting would be refused. Sign-in says why.
        const from = window.location.pathname + window.location.search;
        // A full load, not a client navigation: nothing of the ended session stays in memory.
        window.location.replace(`/sign-in?ended=${encodeURIComponent(reason)}&from=${encodeURIComponent(from)}`);
      });
      source.onerror = () => {
        // Reconnected here rather than by the browser, for the backoff and the `after` of the last id seen.
        source?.close();
        failures += 1;
        setStatus(failures >= offlineAfter ? "offline" : "reconnecting");
        retry = setTimeout(connect, backoffMs(failures - 1));
      };
    }

    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [environment, queryClient]);

  const listen = useCallback((listener: (event: LiveEvent) => void) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  const value = useMemo<LiveContext>(() => ({ status, environment, listen }), [status, environment, listen]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useLiveStatus(): LiveStatus {
  return useContext(Context).status;
}

export function useLiveEnvironment(): Environment | null {
  return useContext(Context).environment;
}

/** Calls `onEvent` (its latest version) for every live change and reset while the component is mounted. */
export function useLiveEvents(onEvent: (event: LiveEvent) => void): void {
  const { listen } = useContext(Context);
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => listen((event) => latest.current(event)), [listen]);
}
