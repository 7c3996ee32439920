"use client";

import type { ComponentType } from "react";
import { CardTokenPanel } from "@/components/cards/card-token-panel";
import { UserdataEditorLoader } from "@/components/userdata/userdata-editor-loader";
import { WebhookDeliveries } from "@/components/webhooks/webhook-deliveries";
import { WebhookStatusActions } from "@/components/webhooks/webhook-status-actions";
import type { ResourceName } from "@/lib/resources";

/** What the server page tells a resource's actions (lib: components/bank/detail-context.ts); never credentials. */
export type DetailContext = Record<string, string>;

export interface DetailExtraProps {
  id: string;
  /** The object as the page shows it (masked). */
  object: Record<string, unknown>;
  context: DetailContext;
}

/**
 * Per resource, what its detail page adds to the one layout: `Actions` in the header, a `Panel` below the fields.
 * Each component hides itself from roles without its permission (the proxy refuses them anyway).
 */
export const detailExtras: Partial<Record<ResourceName, { Actions?: ComponentType<DetailExtraProps>; Panel?: ComponentType<DetailExtraProps> }>> = {
  webhook: { Actions: WebhookStatusActions, Panel: WebhookDeliveries },
  network_transfer: { Panel: UserdataEditorLoader },
  card: { Panel: CardTokenPanel },
};
