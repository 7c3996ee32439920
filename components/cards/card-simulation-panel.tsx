"use client";

import { lazyComponent } from "@/components/ui/lazy-component";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { useCan, useConsoleSession } from "@/components/console/providers";

// The form (and the run's wait for its token) loads after the page, into a box of its height, so nothing below moves.
const CardSimulationForm = lazyComponent(() => import("./card-simulation-form").then((module) => module.default), {
  ssr: false,
  fallback: <div className="mt-4 h-72 animate-pulse rounded-md border border-line bg-surface md:h-44" aria-hidden="true" />,
});

/**
 * "Simulate wallet provisioning" on a card's page (card-simulation-form.tsx): offered only in the sandbox (the proxy
 * refuses it elsewhere), to roles holding `simulation:run`, and not for a canceled card (a canceled card is not added
 * to a wallet).
 */
export function CardSimulationPanel({ id, object }: DetailExtraProps) {
  const { environment } = useConsoleSession();
  const canRun = useCan("simulation:run");
  if (!canRun || environment !== "sandbox" || object.status === "canceled") return null;
  return <CardSimulationForm id={id} />;
}
