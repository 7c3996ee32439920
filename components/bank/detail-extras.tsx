"use client";

import type { ComponentType } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { ResourceName } from "@/lib/resources/routes";
import type { DetailExtraProps } from "./detail-extra-props";

// Each extra is its own chunk, loaded (and server-rendered) only on the detail page of its resource: the one detail
// component serves every resource, so static imports here would ship every resource's panels to every detail page.
const CardPanels = lazyComponent(() => import("@/components/cards/card-panels").then((module) => module.CardPanels));
const UserdataEditorLoader = lazyComponent(() =>
  import("@/components/userdata/userdata-editor-loader").then((module) => module.UserdataEditorLoader),
);
const WebhookDeliveries = lazyComponent(() => import("@/components/webhooks/webhook-deliveries").then((module) => module.WebhookDeliveries));
const WebhookStatusActions = lazyComponent(() =>
  import("@/components/webhooks/webhook-status-actions").then((module) => module.WebhookStatusActions),
);

/**
 * Per resource, what its detail page adds to the one layout: `Actions` in the header, a `Panel` below the fields.
 * Each component hides itself from roles without its permission (the proxy refuses them anyway).
 */
export const detailExtras: Partial<Record<ResourceName, { Actions?: ComponentType<DetailExtraProps>; Panel?: ComponentType<DetailExtraProps> }>> = {
  webhook: { Actions: WebhookStatusActions, Panel: WebhookDeliveries },
  network_transfer: { Panel: UserdataEditorLoader },
  card: { Panel: CardPanels },
};
