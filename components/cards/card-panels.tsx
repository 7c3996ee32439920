"use client";

import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { CardSimulationPanel } from "./card-simulation-panel";
import { CardTokenPanel } from "./card-token-panel";

/** What a card's page adds below its fields: the wallet provisioning simulation (sandbox) and the UX toolkit token. */
export function CardPanels(props: DetailExtraProps) {
  return (
    <>
      <CardSimulationPanel {...props} />
      <CardTokenPanel {...props} />
    </>
  );
}
