"use client";

import { bankKeys } from "@/lib/bank/query-keys";
import type { Webhook, WebhookDelivery } from "@/lib/contract";
import type { CurrentUserdata } from "@/lib/bank/queries";
import { useBankAction } from "./use-bank-action";

/**
 * Every change a console page sends to the bank, by name: each knows its request and which cached answers it makes
 * stale, so a component says what it does ("save this userdata") and never builds a bank path or a query key.
 */

const webhookPath = (id: string) => `/webhook/${encodeURIComponent(id)}`;

export type WebhookChange = "enable" | "disable" | "reset" | "delete";

/** PATCH a network transfer's userdata; its page and every network-transfer list go stale. */
export const useSaveUserdata = (id: string, onSuccess: (result: CurrentUserdata) => void) =>
  useBankAction<Record<string, unknown>, CurrentUserdata>({
    request: (userdata) => ({ method: "PATCH", path: `/network_transfer/${encodeURIComponent(id)}`, body: { userdata } }),
    invalidates: (environment) => [bankKeys.detail(environment, "network_transfer", id), bankKeys.lists(environment, "network_transfer")],
    onSuccess,
  });

export const useCreateWebhook = (onSuccess: () => void) =>
  useBankAction<Record<string, unknown>, Webhook>({
    request: (body) => ({ method: "POST", path: "/webhook", body }),
    invalidates: (environment) => [bankKeys.lists(environment, "webhook")],
    onSuccess,
  });

/** What an edit of a webhook may change (the bank's PATCH; `basic_secret` write-only, null removes it). */
export interface WebhookEdit {
  url?: string;
  event?: string;
  basic_user?: string | null;
  basic_secret?: string | null;
}

/** PATCH a webhook's url, event or Basic credentials; its page (and deliveries, under its key) and the lists go stale. */
export const useEditWebhook = (id: string, onSuccess: (webhook: Webhook) => void) =>
  useBankAction<WebhookEdit, Webhook>({
    request: (edit) => ({ method: "PATCH", path: webhookPath(id), body: edit }),
    invalidates: (environment) => [bankKeys.detail(environment, "webhook", id), bankKeys.lists(environment, "webhook")],
    onSuccess,
  });

/** Enable, disable, reset (error → enabled, a PATCH to enabled) or delete one webhook. */
export const useChangeWebhook = (id: string, onSuccess: (change: WebhookChange) => void) =>
  useBankAction<WebhookChange, unknown>({
    request: (change) =>
      change === "delete"
        ? { method: "DELETE", path: webhookPath(id) }
        : { method: "PATCH", path: webhookPath(id), body: { status: change === "disable" ? "disabled" : "enabled" } },
    invalidates: (environment, change) =>
      change === "delete"
        ? [bankKeys.lists(environment, "webhook")]
        : [bankKeys.detail(environment, "webhook", id), bankKeys.lists(environment, "webhook")],
    onSuccess: (_result, change) => onSuccess(change),
  });

/**
 * One attempt now at a webhook: a notification sent again (`resend`, by its id) or a webhook.test notification
 * (`test`); the bank answers the attempt. Its deliveries, under the webhook's detail key, go stale.
 */
export const useSendToWebhook = (id: string, onSuccess: (attempt: WebhookDelivery) => void) =>
  useBankAction<{ resend: string } | "test", WebhookDelivery>({
    request: (what) => ({
      method: "POST",
      path: what === "test" ? `${webhookPath(id)}/test` : `${webhookPath(id)}/notifications/${encodeURIComponent(what.resend)}/resend`,
    }),
    invalidates: (environment) => [bankKeys.detail(environment, "webhook", id)],
    onSuccess,
  });

/** A card's UXT access token for a DPoP proof the browser signed. */
export const useIssueCardToken = (id: string) =>
  useBankAction<string, { access_token: string; expires_in: number; token_type: string }>({
    request: (dpop) => ({ method: "POST", path: `/card/${encodeURIComponent(id)}/uxt_access_token`, body: { dpop } }),
    // A token changes no bank object this console shows: nothing cached goes stale.
    invalidates: () => [],
  });

/** The sandbox's wallet-provisioning simulation: a new token appears in the card's wallet-token list. */
export const useSimulateProvisioning = () =>
  useBankAction<{ body: unknown }, undefined>({
    request: ({ body }) => ({ method: "POST", path: "/simulation", body }),
    invalidates: (environment) => [bankKeys.lists(environment, "digital_wallet_token")],
  });
