import "server-only";
import type { StaffUser } from "@/lib/auth/staff-user";
import { consoleBankClient } from "@/lib/bank/console-client";
import { bankBaseUrl } from "@/lib/bank/transport";
import type { Environment } from "@/lib/credentials/environments";
import { consoleAddress } from "@/lib/index/runtime";
import { can } from "@/lib/permissions";
import type { ResourceName } from "@/lib/resources";
import type { DetailContext } from "./detail-extra-props";

/**
 * Per resource, what the server tells its detail page's actions. A card's token proof must be signed by the browser
 * for the exact URL the bank will see (`htu`); only the server knows the bank's address, so it passes that URL, and
 * only the URL: origin and path, never the credentials the console holds for it.
 */
export const detailContexts: Partial<Record<ResourceName, (user: StaffUser, environment: Environment, id: string) => Promise<DetailContext>>> = {
  card: async (user, environment, id): Promise<DetailContext> => {
    if (!can(user.role, "card:token")) return {};
    const bank = await consoleBankClient(environment);
    if (!bank) return {};
    const base = bankBaseUrl(bank.baseUrl);
    base.username = "";
    base.password = "";
    return { tokenUrl: new URL(`card/${encodeURIComponent(id)}/uxt_access_token`, base).toString() };
  },
  // Where the bank reaches the console, so the page knows the console's own subscriptions (lib/index/console-webhooks.ts).
  webhook: async (): Promise<DetailContext> => ({ consoleAddress: consoleAddress() }),
};
