"use client";

import type { ComponentType } from "react";
import { useCan, useConsoleSession } from "@/components/console/providers";
import type { MovableResource } from "@/components/sandbox/sandbox-api";
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

const FailurePanel = lazyComponent(() => import("@/components/returns/failure-panel").then((module) => module.FailurePanel));

const CustomerMovements = lazyComponent(() => import("@/components/customer/customer-movements").then((module) => module.CustomerMovements));
const CustomerLinks = lazyComponent(() => import("@/components/customer/customer-links").then((module) => module.CustomerLinks));

const SimulateMenu = lazyComponent(() => import("@/components/sandbox/simulate-menu").then((module) => module.SimulateMenu));

/**
 * The Simulate menu of an object, only while the sandbox is active and for roles holding `sandbox:control`, decided
 * here so the menu's code is not even loaded for others (every detail page loads this module).
 */
function Simulate(props: DetailExtraProps & { resource: MovableResource }) {
  const { environment } = useConsoleSession();
  const canControl = useCan("sandbox:control");
  if (environment !== "sandbox" || !canControl) return null;
  // `#simulate`: where the command palette's "Simulate…" of a search result leads.
  return (
    <div id="simulate">
      <SimulateMenu {...props} />
    </div>
  );
}

const SimulateAch = (props: DetailExtraProps) => <Simulate {...props} resource="ach" />;
const SimulateNetworkTransfer = (props: DetailExtraProps) => <Simulate {...props} resource="network_transfer" />;
const SimulateFednow = (props: DetailExtraProps) => <Simulate {...props} resource="fednow" />;

/** A webhook's header: Simulate beside its own actions (edit, enable, disable, reset, delete). */
function WebhookActions(props: DetailExtraProps) {
  return (
    <div id="webhook-actions" className="flex flex-wrap items-start justify-end gap-2">
      <Simulate {...props} resource="webhook" />
      <WebhookStatusActions {...props} />
    </div>
  );
}

/** Why a transfer or payment failed (nothing when it did not), above a network transfer's userdata editor. */
const AchPanel = (props: DetailExtraProps) => <FailurePanel {...props} kind="ach" />;
const FednowPanel = (props: DetailExtraProps) => <FailurePanel {...props} kind="fednow" />;
const NetworkTransferPanel = (props: DetailExtraProps) => (
  <>
    <FailurePanel {...props} kind="network_transfer" />
    <UserdataEditorLoader {...props} />
  </>
);

/**
 * Per resource, what its detail page adds to the one layout: `Actions` in the header, a `Panel` below the fields.
 * Each component hides itself from roles without its permission (the proxy refuses them anyway).
 */
export const detailExtras: Partial<Record<ResourceName, { Actions?: ComponentType<DetailExtraProps>; Panel?: ComponentType<DetailExtraProps> }>> = {
  webhook: { Actions: WebhookActions, Panel: WebhookDeliveries },
  network_transfer: { Actions: SimulateNetworkTransfer, Panel: NetworkTransferPanel },
  ach: { Actions: SimulateAch, Panel: AchPanel },
  fednow: { Actions: SimulateFednow, Panel: FednowPanel },
  card: { Panel: CardPanels },
  counterparty: { Panel: CustomerMovements },
  person_application: { Panel: CustomerLinks },
  business_application: { Panel: CustomerLinks },
};
