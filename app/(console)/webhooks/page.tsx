import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Webhooks · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="webhook" searchParams={searchParams} description="Webhook subscriptions, newest first." />;
}
