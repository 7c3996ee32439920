import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("ach");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="ach" searchParams={searchParams} description="ACH credits and debits, newest first." />;
}
