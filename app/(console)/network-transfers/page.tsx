import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("network_transfer");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="network_transfer" searchParams={searchParams} description="Account-to-account transfers, newest first." />;
}
