"use client";

import type { ComponentType } from "react";
import { CreateWebhook } from "@/components/webhooks/create-webhook";
import type { ResourceName } from "@/lib/resources";

/** Per resource, what its list page offers above the filters (a create form); each hides itself from roles without its permission. */
export const listExtras: Partial<Record<ResourceName, ComponentType>> = {
  webhook: CreateWebhook,
};
