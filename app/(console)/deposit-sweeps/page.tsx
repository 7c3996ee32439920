import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Deposit sweeps · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="deposit_sweep" searchParams={searchParams} description="Deposit sweep accounts, newest first." />;
}
