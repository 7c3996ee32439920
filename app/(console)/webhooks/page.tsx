import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";
import { CreateWebhook } from "@/components/webhooks/create-webhook";

export const metadata = listMetadata("webhook");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return (
    <ResourceListPage resource="webhook" searchParams={searchParams} description="Webhook subscriptions, newest first." actions={<CreateWebhook />} />
  );
}
