import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("counterparty");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="counterparty" searchParams={searchParams} description="External parties for ACH and wire, newest first." />;
}
