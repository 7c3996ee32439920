import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";
import { ConsoleSubscriptions } from "@/components/webhooks/console-subscriptions";
import { NewWebhook } from "@/components/webhooks/new-webhook";

export const metadata = listMetadata("webhook");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return (
    <ResourceListPage
      resource="webhook"
      searchParams={searchParams}
      description="Webhook subscriptions, newest first; the console's own (for its index) are marked and grouped above."
      actions={
        <>
          <NewWebhook />
          <ConsoleSubscriptions />
        </>
      }
    />
  );
}
