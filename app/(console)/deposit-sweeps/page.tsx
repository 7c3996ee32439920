import { listMetadata, ResourceListPage, type SearchParams } from "@/components/bank/resource-list-page";

export const metadata = listMetadata("deposit_sweep");

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="deposit_sweep" searchParams={searchParams} description="Deposit sweep accounts, newest first." />;
}
