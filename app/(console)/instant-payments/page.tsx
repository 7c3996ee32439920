import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("fednow");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="fednow" searchParams={searchParams} description="Instant payments on the FedNow network, newest first." />;
}
