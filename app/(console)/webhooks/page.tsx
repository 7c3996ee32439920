import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";
import { ConsoleSubscriptions } from "@/components/webhooks/console-subscriptions";
import { NewWebhook } from "@/components/webhooks/new-webhook";

export const metadata = listMetadata("webhook");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return (
    <ResourceListPage
      resource="webhook"
      searchParams={searchParams}
      description="The bank customer's webhook subscriptions, newest first. The console's own (for its index) are in their own section."
      actions={<NewWebhook />}
      after={<ConsoleSubscriptions />}
    />
  );
}
