import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("webhook");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="webhook" searchParams={searchParams} description="Webhook subscriptions, newest first." />;
}
