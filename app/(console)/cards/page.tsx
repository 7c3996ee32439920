import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("card");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="card" searchParams={searchParams} description="Cards and their holders, newest first." />;
}
