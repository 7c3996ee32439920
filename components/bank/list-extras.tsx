"use client";

import dynamic from "next/dynamic";
import type { ComponentType } from "react";
import type { ResourceName } from "@/lib/resources";

// Its own chunk, loaded only on the list that shows it (the one list component serves every resource).
const CreateWebhook = dynamic(() => import("@/components/webhooks/create-webhook").then((module) => module.CreateWebhook));

/** Per resource, what its list page offers above the filters (a create form); each hides itself from roles without its permission. */
export const listExtras: Partial<Record<ResourceName, ComponentType>> = {
  webhook: CreateWebhook,
};
